// The native modal for an ask: names the agent and the rule; the detail shows the tool, the
// command or path, the folder and the reason. Cancel or Escape resolve undefined = deny.
import * as vscode from "vscode";
import type { AskRequest } from "../core/asker";
import { AGENTS, isAgentId } from "../engine/agents";

/** The agent's name as people know it, from the agents table ("Claude Code", "pi", …). */
export function agentName(agent: string): string {
  return isAgentId(agent) ? AGENTS[agent].label : agent;
}

export function showAskModal(req: AskRequest, deadline: number): Thenable<"Allow" | "Deny" | undefined> {
  const isCommand = req.tool.toLowerCase() === "bash";
  const seconds = Math.max(1, Math.round((deadline - Date.now()) / 1000));
  const reason = req.reason.replace(/^Damage Control asks the user to confirm: /, "").replace(/ \(rule: .*\)\.?$/, "");
  const message = `${agentName(req.agent)} wants to ${isCommand ? "run a command" : `use ${req.tool}`} that the rule "${req.rule ?? reason}" puts to you.`;
  const detail = [
    `Tool: ${req.tool}`,
    `${isCommand ? "Command" : "Path"}: ${req.target}`,
    `Folder: ${req.folder}`,
    `Reason: ${reason}`,
    "",
    `No answer within ${seconds} s means Deny.`,
  ].join("\n");
  // Fix: "Deny" comes first so that it is the dialog's primary (focused) button. With "Allow"
  // first, a stray Enter (the modal takes focus from wherever the developer is typing) approved
  // the call. Allow must be a deliberate click.
  return vscode.window.showWarningMessage(message, { modal: true, detail }, "Deny", "Allow") as Thenable<"Allow" | "Deny" | undefined>;
}

export function tellTooLate(req: AskRequest, answer: "Allow" | "Deny" | undefined): void {
  if (answer === undefined) return;
  void vscode.window.showInformationMessage(
    `Damage Control: your "${answer}" for ${agentName(req.agent)}'s ${req.tool} call came too late. The call had already been denied when the time ran out; nothing was changed.`,
  );
}
