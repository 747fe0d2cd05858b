// The extension's settings, read in one place.
import * as vscode from "vscode";
import { parsePosture, type Posture } from "../engine/events";

export interface Settings {
  enabled: boolean;
  rulesFile: string;
  askTimeoutSeconds: number;
  /** 0 = the folder's usual port. */
  port: number;
  onParseError: "ask" | "block";
  posture: Posture;
  /** OTLP/HTTP base URL for the decision export; "" = off. */
  telemetryEndpoint: string;
  /** Send command text, paths and reasons to the telemetry endpoint too. */
  telemetryIncludeContent: boolean;
}

export const SECTION = "damageControl";

export function readSettings(scope?: vscode.ConfigurationScope): Settings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const timeout = c.get<number>("askTimeoutSeconds", 30);
  return {
    enabled: c.get<boolean>("enabled", true),
    rulesFile: c.get<string>("rulesFile", ".pi/damage-control-rules.yaml") || ".pi/damage-control-rules.yaml",
    askTimeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, 600) : 30,
    port: c.get<number>("port", 0) || 0,
    onParseError: c.get<string>("onParseError", "ask") === "block" ? "block" : "ask",
    posture: parsePosture(c.get<string>("posture", "advisory")) ?? "advisory",
    telemetryEndpoint: (c.get<string>("telemetry.endpoint", "") ?? "").trim(),
    telemetryIncludeContent: c.get<boolean>("telemetry.includeContent", false) === true,
  };
}
