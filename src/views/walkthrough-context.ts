// The walkthrough's steps complete from the real state (issue 38: "Create a rules file" stayed
// unchecked although the demo had one): context keys the steps' completionEvents name
// (onContext:…), kept in step with the guard's rules and the agents' hook files.
import * as vscode from "vscode";
import { agentChecks } from "../install/agent-checks";
import type { GuardHost } from "./guard-host";

/** True when a guarded folder has its own rules file (in force, or broken with the last good rules). */
export const HAS_RULES_FILE = "damageControl.hasRulesFile";
/** True when an agent other than VS Code's own (which has its own step) is guarded here. */
export const AGENT_WIRED = "damageControl.agentWired";

export function registerWalkthroughContext(context: vscode.ExtensionContext, host: GuardHost): void {
  const rules = () => void vscode.commands.executeCommand("setContext", HAS_RULES_FILE, (host.guard?.rulesStates() ?? []).some((s) => s.source !== "default"));
  // The doctor's agent checks read a few small files (no agent CLI is started).
  const agents = () => {
    const folder = host.folders()[0];
    if (!folder) return;
    try {
      void vscode.commands.executeCommand("setContext", AGENT_WIRED, agentChecks(folder).some((c) => c.agent?.state === "guarding"));
    } catch {
      /* the walkthrough step stays as it was */
    }
  };
  const onState = () => {
    rules();
    agents();
  };
  host.on("state", onState);
  host.on("rules", rules);
  // Installing hooks from the palette or the walkthrough's buttons.
  const watch = vscode.commands.registerCommand("damageControl.refreshWalkthrough", onState);
  context.subscriptions.push(watch, { dispose: () => (host.off("state", onState), host.off("rules", rules)) });
  onState();
}
