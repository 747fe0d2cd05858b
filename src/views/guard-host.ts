// Runs the guard and its endpoint inside the extension host for the window's folders, exports
// DAMAGE_CONTROL_URL / DAMAGE_CONTROL_TOKEN to integrated terminals, and restarts when the
// folders or the settings change. Every window guards its own folders on its own port.
import { sandboxFromRules } from "../core/sandbox/from-rules";
import { EventEmitter } from "node:events";
import * as vscode from "vscode";
import type { Asker } from "../core/asker";
import { Guard, type DecisionRecord } from "../core/guard";
import { unregister } from "../core/registry";
import type { RulesState } from "../core/rules-store";
import { VERSION } from "../core/build-info";
import { startGuardEndpoint, type StartedEndpoint } from "../hookserver/start";
import { attachTelemetry, loadTelemetry, type Telemetry } from "../hookserver/telemetry-loader";
import { loadOrCreateToken } from "../core/token";
import { refreshClaudeHooks } from "../install/claude";
import { keepClaudeSandboxInStep } from "../install/claude-sandbox";
import { readSettings } from "./settings";
import { isApproved } from "../core/approvals";
import { migrationNotice, offerApproval, warnIgnoredSettings } from "./layer-approval";

export interface HostState {
  guard?: Guard;
  endpoint?: StartedEndpoint;
  /** The OpenTelemetry export, when damageControl.telemetry.endpoint is set. */
  telemetry?: Telemetry;
  /** Why the endpoint is not running, when it is not. */
  down?: string;
}

export class GuardHost extends EventEmitter implements vscode.Disposable {
  private state: HostState = {};
  private token: string | undefined;
  private restarting: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly asker: Asker,
  ) {
    super();
  }

  get guard(): Guard | undefined {
    return this.state.guard;
  }

  get endpoint(): StartedEndpoint | undefined {
    return this.state.endpoint;
  }

  get down(): string | undefined {
    return this.state.down;
  }

  folders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
  }

  /** (Re)starts the guard for the current folders and settings. Serialised: never two at once. */
  restart(): Promise<void> {
    this.restarting = this.restarting.then(() => this.doRestart()).catch(() => undefined);
    return this.restarting;
  }

  private async doRestart(): Promise<void> {
    await this.stop();
    const folders = this.folders();
    const settings = readSettings();
    // Layers: a workspace's security settings that would loosen the guard are ignored, with a warning.
    warnIgnoredSettings(settings.ignored);
    if (!settings.enabled) {
      this.state = { down: vscode.l10n.t("Damage Control is disabled (setting damageControl.enabled)") };
      this.emit("state");
      return;
    }
    if (folders.length === 0) {
      this.state = { down: vscode.l10n.t("no folder is open") };
      this.emit("state");
      return;
    }
    // Layers: a workspace file's disable:/allow: apply once the user approved that content, and never in an untrusted workspace.
    const trust = vscode.workspace.isTrusted ? { kind: "approved" as const, isApproved: (f: string, t: string, i: string[]) => isApproved(f, t, i) } : { kind: "never" as const };
    const guard: Guard = new Guard({ folders, rulesPath: settings.rulesFile, onParseError: settings.onParseError, unknownTools: settings.unknownTools, posture: settings.posture, trust, sandbox: sandboxFromRules((f) => guard.storeFor(f).current().rules) });
    guard.on("decision", (d: DecisionRecord) => this.emit("decision", d));
    guard.on("rules", (s: RulesState) => {
      this.emit("rules", s);
      if (vscode.workspace.isTrusted) void offerApproval(guard, s);
    });
    for (const s of guard.rulesStates()) {
      migrationNotice(this.context, s);
      if (vscode.workspace.isTrusted) void offerApproval(guard, s);
    }
    guard.watch();
    // Claude Code's own sandbox follows every rules change (docs/sandbox.md).
    keepClaudeSandboxInStep(guard);
    let telemetry: Telemetry | undefined;
    if (settings.telemetryEndpoint) {
      try {
        telemetry = loadTelemetry({ endpoint: settings.telemetryEndpoint, includeContent: settings.telemetryIncludeContent, serviceVersion: VERSION });
        attachTelemetry(guard, telemetry);
      } catch (e) {
        void vscode.window.showWarningMessage(vscode.l10n.t("Damage Control: telemetry is off: {0} (setting damageControl.telemetry.endpoint)", (e as Error).message));
      }
    }
    try {
      this.token ??= loadOrCreateToken();
      const token = this.token;
      // A folder another live window or serve guards stays theirs until it is gone (issue 35):
      // only the folders registered here get their installed hooks pointed here, now or later.
      const endpoint = await startGuardEndpoint(guard, token, { port: settings.port || undefined, host: "vscode", asker: this.asker, onRegistered: (took) => took.forEach((f) => refreshClaudeHooks(f, endpoint.url, token)) });
      // The usual port was taken (another window, a stale host), or the token changed: point installed hooks here.
      for (const f of endpoint.registered) refreshClaudeHooks(f, endpoint.url, token);
      this.state = { guard, endpoint, telemetry };
      this.exportToTerminals(endpoint.url, this.token);
    } catch (e) {
      this.state = { guard, telemetry, down: vscode.l10n.t("the endpoint could not start: {0}", (e as Error).message) };
    }
    this.emit("state");
  }

  private exportToTerminals(url: string, token: string): void {
    const env = this.context.environmentVariableCollection;
    env.description = vscode.l10n.t("Damage Control: where agents reach the guard");
    env.replace("DAMAGE_CONTROL_URL", url);
    env.replace("DAMAGE_CONTROL_TOKEN", token);
  }

  private async stop(): Promise<void> {
    const { guard, endpoint, telemetry } = this.state;
    this.state = {};
    if (guard) {
      unregister(guard.folders);
      guard.close();
    }
    if (endpoint) await endpoint.close();
    // Bounded (5 s) and not awaited: the next guard need not wait for the last export.
    if (telemetry) void telemetry.shutdown();
  }

  dispose(): void {
    void this.stop();
  }
}
