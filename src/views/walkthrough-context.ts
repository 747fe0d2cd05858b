// The walkthrough's steps complete from the real state (issue 38: "Create a rules file" stayed
// unchecked although the demo had one): a folder with its own rules file, an agent wired, VS
// Code's agent guarded. Each step completes on a context key set here, never on its button's
// command alone (a click is not the thing done: the command may fail or be cancelled).
// Why three onContext events per step (package.json): VS Code 1.139's getting-started service
// only notes an expression already true when the walkthrough registers (sessionEvents) and never
// progresses the step for it, nor later, as that event counts as seen. So each key is paired
// with `activeEditor == 'gettingStartedPage'` and with its negation: whichever of the two was
// false at registration becomes true when the user opens (or leaves) the walkthrough, and the
// step ticks from the real state even when it was already true at start
// (test/vscode/ui/walkthrough.test.ts).
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
