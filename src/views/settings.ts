// The extension's settings, read in one place. The security settings (enabled, rulesFile, posture,
// port) come from user/machine scope; a workspace may only tighten them (settings-scope.ts).
import * as vscode from "vscode";
import { parsePosture, type Posture } from "../engine/events";
import { enabledScope, portScope, postureScope, rulesFileScope, type Scoped } from "./settings-scope";

export interface Settings {
  enabled: boolean;
  rulesFile: string;
  askTimeoutSeconds: number;
  /** 0 = the folder's usual port. */
  port: number;
  onParseError: "ask" | "block";
  /** A tool Damage Control cannot judge: ask, or no opinion. User or machine scope only. */
  unknownTools: "ask" | "no-opinion";
  posture: Posture;
  /** OTLP/HTTP base URL for the decision export; "" = off. */
  telemetryEndpoint: string;
  /** Send command text, paths and reasons to the telemetry endpoint too. */
  telemetryIncludeContent: boolean;
  /** Workspace values of security settings that were ignored (shown to the user as a warning). */
  ignored: string[];
}

export const SECTION = "damageControl";

/**
 * A repository must not decide how much of what the guard cannot read goes through: only the
 * user's (or machine's) value counts; the setting is application-scoped, and a workspace value is
 * ignored here too.
 */
function unknownToolsOf(i: { globalValue?: string } | undefined): "ask" | "no-opinion" {
  return i?.globalValue === "ask" ? "ask" : "no-opinion";
}

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const timeout = c.get<number>("askTimeoutSeconds", 30);
  const ignored: string[] = [];
  const take = <T>(s: Scoped<T>): T => {
    if (s.ignored) ignored.push(s.ignored);
    return s.value;
  };
  return {
    enabled: take(enabledScope(c.inspect<boolean>("enabled"), vscode.l10n.t)) !== false,
    rulesFile: take(rulesFileScope(c.inspect<string>("rulesFile"), vscode.l10n.t)) || ".pi/damage-control-rules.yaml",
    askTimeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, 600) : 30,
    port: take(portScope(c.inspect<number>("port"), vscode.l10n.t)) || 0,
    onParseError: c.get<string>("onParseError", "ask") === "block" ? "block" : "ask",
    unknownTools: unknownToolsOf(c.inspect<string>("unknownTools")),
    posture: parsePosture(take(postureScope(c.inspect<string>("posture"), vscode.l10n.t))) ?? "advisory",
    telemetryEndpoint: (c.get<string>("telemetry.endpoint", "") ?? "").trim(),
    telemetryIncludeContent: c.get<boolean>("telemetry.includeContent", false) === true,
    ignored,
  };
}
