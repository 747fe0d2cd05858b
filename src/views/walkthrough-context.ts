// The walkthrough's steps complete from the real state (issue 38: "Create a rules file" stayed
// unchecked although the demo had one): a folder with its own rules file, an agent wired, VS
// Code's agent guarded. Each step completes on a context key (onContext:…) set here, and on the
// command its button runs.
// (Observed in the vscode tier, code-server 1.139 as Extension Development Host: the walkthrough
// page did not show a step checked, from these keys or from its own button; see the report of
// issue 38. The keys are set as the API documents.)
import * as fs from "node:fs";
import * as vscode from "vscode";
import { agentChecks } from "../install/agent-checks";
import { isOurCopilotFile, userHookFile } from "../install/copilot";
import type { GuardHost } from "./guard-host";

/** The walkthrough keys, by step. */
export const STEP_DONE = {
  rules: "damageControl.walkthrough.hasRulesFile",
  agents: "damageControl.walkthrough.agentWired",
  vscodeAgent: "damageControl.walkthrough.vscodeAgentGuarded",
} as const;
/** The palette's key (package.json when-clauses): Guard or Stop Guarding VS Code's agent. */
export const VSCODE_AGENT_GUARDED = "damageControl.vscodeAgentGuarded";

export function registerWalkthroughContext(context: vscode.ExtensionContext, host: GuardHost): void {
  const state = (): Record<keyof typeof STEP_DONE, boolean> => {
    const folder = host.folders()[0];
    let wired = false;
    try {
      // The doctor's agent checks read a few small files (no agent CLI is started).
      wired = !!folder && agentChecks(folder).some((c) => c.agent?.state === "guarding");
    } catch {
      /* not wired, as far as can be told */
    }
    return {
      rules: (host.guard?.rulesStates() ?? []).some((s) => s.source !== "default"),
      agents: wired,
      vscodeAgent: fs.existsSync(userHookFile()) && isOurCopilotFile(userHookFile()),
    };
  };
  const set = (key: string, value: boolean) => void vscode.commands.executeCommand("setContext", key, value);
  const sync = () => {
    const now = state();
    set(VSCODE_AGENT_GUARDED, now.vscodeAgent);
    for (const [step, done] of Object.entries(now) as [keyof typeof STEP_DONE, boolean][]) set(STEP_DONE[step], done);
  };
  host.on("state", sync);
  host.on("rules", sync);
  context.subscriptions.push(vscode.commands.registerCommand("damageControl.refreshWalkthrough", sync), { dispose: () => (host.off("state", sync), host.off("rules", sync)) });
  sync();
}
