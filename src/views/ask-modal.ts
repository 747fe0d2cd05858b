// The native modal for an ask: names the agent and the rule; the detail shows the tool, the
// command or path, the folder and the reason. Cancel or Escape resolve undefined = deny.
import * as vscode from "vscode";
import type { AskRequest } from "../core/asker";
import { ALWAYS_ALLOW, type ModalChoice } from "./ask-queue";

export function agentName(agent: string): string {
  return agent === "claude" ? "Claude Code" : agent === "pi" ? "pi" : agent;
}

export function showAskModal(req: AskRequest, deadline: number): Thenable<ModalChoice> {
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
  // A bash pattern's ask may also become an exception in the user's rules (never the workspace file).
  const buttons = req.command ? ["Deny", "Allow", ALWAYS_ALLOW] : ["Deny", "Allow"];
  return vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons) as Thenable<ModalChoice>;
}

export function tellTooLate(req: AskRequest, answer: ModalChoice): void {
  if (answer === undefined) return;
  void vscode.window.showInformationMessage(
    `Damage Control: your "${answer}" for ${agentName(req.agent)}'s ${req.tool} call came too late. The call had already been denied when the time ran out; nothing was changed.`,
  );
}
