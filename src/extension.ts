// Damage Control for VS Code: a thin adapter. The engine decides; the hook server answers the
// agents; this file wires the views (modal asks, panel, status bar, diagnostics) to them.
import * as vscode from "vscode";
import { AskQueue } from "./views/ask-queue";
import { showAskModal, tellTooLate } from "./views/ask-modal";
import { registerCommands } from "./views/commands";
import { GuardHost } from "./views/guard-host";
import { log, logDecision, logError } from "./views/log";
import { registerGuardVsCodeAgent } from "./views/guard-vscode-agent";
import { VsCodeSandbox } from "./views/vscode-sandbox";
import { PanelView, PANEL_VIEW_ID } from "./views/panel/panel-view";
import { RuleStats } from "./views/rule-stats";
import { RulesDiagnostics } from "./views/rules-diagnostics";
import { RulesHover } from "./views/rules-hover";
import { registerApplyRuleFix, RulesQuickFixes } from "./views/rules-quickfix";
import { readSettings, SECTION } from "./views/settings";
import { StatusBar } from "./views/status-bar";
import { registerWalkthroughContext } from "./views/walkthrough-context";

export interface DamageControlApi {
  host: GuardHost;
  asks: AskQueue;
  diagnostics: RulesDiagnostics;
  /** Resolves once the first start of the guard is done (endpoint up, or down with a reason). */
  ready: Promise<void>;
  /** How long activate() took, and how long until the endpoint listened (ms): for the benchmarks. */
  timing: { activateMs: number; readyMs?: number };
}

export function activate(context: vscode.ExtensionContext): DamageControlApi {
  const started = performance.now();
  // The token is exported to terminals: never cached in workspace storage across restarts.
  context.environmentVariableCollection.persistent = false;
  context.subscriptions.push(log());
  const asks = new AskQueue({
    // A modal that fails is a deny (the queue's rule); the error goes to the log.
    show: (req, deadline) =>
      showAskModal(req, deadline).then(undefined, (e: unknown) => {
        logError(`the ask modal for ${req.agent}'s ${req.tool} call failed`, e);
        throw e;
      }),
    timeoutMs: () => readSettings().askTimeoutSeconds * 1000,
    onLate: tellTooLate,
  });
  const host: GuardHost = new GuardHost(context, asks);
  const stats = new RuleStats();
  host.on("decision", (d) => {
    stats.add(d);
    logDecision(d);
  });
  host.on("state", () => {
    // A guard without its endpoint is an error; disabled or no folder is a state.
    if (host?.down && host.guard) logError(`the endpoint is down: ${host.down}`);
    else if (host?.down) log().info(`not guarding: ${host.down}`);
    else if (host?.endpoint) log().info(`guarding ${host.guard?.folders.join(", ")} at ${host.endpoint.url}`);
  });
  host.once("state", () => {
    for (const f of host?.guard?.folders ?? []) for (const e of host!.guard!.ledgerFor(f).tail(5000)) stats.add(e);
  });

  const panel = new PanelView(context.extensionUri, host);
  const diagnostics = new RulesDiagnostics(host);
  const yaml: vscode.DocumentSelector = [{ language: "yaml" }, { pattern: "**/damage-control-rules.yaml" }];
  context.subscriptions.push(
    host,
    panel,
    diagnostics,
    new StatusBar(host),
    vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, panel),
    vscode.languages.registerCodeActionsProvider(yaml, new RulesQuickFixes(diagnostics, host), { providedCodeActionKinds: RulesQuickFixes.kinds }),
    vscode.languages.registerHoverProvider(yaml, new RulesHover(host, stats)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void host.restart()),
    // Layers: trusting the workspace lets an approved workspace rules file apply.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void host.restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.enabled`) || e.affectsConfiguration(`${SECTION}.rulesFile`) || e.affectsConfiguration(`${SECTION}.port`) || e.affectsConfiguration(`${SECTION}.onParseError`) || e.affectsConfiguration(`${SECTION}.posture`) || e.affectsConfiguration(`${SECTION}.telemetry`)) {
        void host.restart();
      }
    }),
  );
  registerCommands(context, host, panel);
  registerApplyRuleFix(context);
  registerWalkthroughContext(context, host);
  registerGuardVsCodeAgent(context, new VsCodeSandbox(context, host));
  const timing: DamageControlApi["timing"] = { activateMs: 0 };
  const ready = host.restart().then(() => {
    timing.readyMs = performance.now() - started;
  });
  timing.activateMs = performance.now() - started;
  return { host, asks, diagnostics, ready, timing };
}

export function deactivate(): void {
  // Disposables registered on the context stop the endpoint and unregister it.
}
