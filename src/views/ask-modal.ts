// The native modal for an ask. Its title states the reason in a person's words ("Claude Code
// wants to run a command: pushing changes the shared remote — a human decides"); the detail keeps
// the tool, the command or path, the folder and the rule. Buttons: Deny (the default, so a stray
// Enter never approves), Allow, and — for a bash pattern's ask — "Always allow in this folder",
// which the guard turns into an exception in the user's rules (never the workspace file).
// Cancel or Escape resolve undefined = deny.
import * as vscode from "vscode";
import type { AskRequest } from "../core/asker";
import { agentLabel } from "../engine/agents";
import { mcpName, toolLabel } from "../engine/mcp/name";
import { ALWAYS_ALLOW, type ModalChoice } from "./ask-queue";
import { composeAskTitle } from "./ask-title";
import { headlineOf } from "./panel/feed";

/** The agent's name as people know it, from the agents table ("Claude Code", "pi", …). */
export function agentName(agent: string): string {
  return agentLabel(agent);
}

/** The title: who wants what, the reason, and that a human decides. */
export function askTitle(req: AskRequest): string {
  // An MCP call is shown as server · tool (toolLabel).
  return composeAskTitle((m, ...a) => vscode.l10n.t(m, ...a), agentName(req.agent), toolLabel(req.tool), headlineOf(req.reason, req.rule));
}

export function showAskModal(req: AskRequest, deadline: number): Thenable<ModalChoice> {
  const t = vscode.l10n.t;
  const isCommand = req.tool.toLowerCase() === "bash";
  const seconds = Math.max(1, Math.round((deadline - Date.now()) / 1000));
  const detail = [
    t("Tool: {0}", toolLabel(req.tool)),
    // An MCP call's target is its arguments that run or touch something (never a secret).
    isCommand ? t("Command: {0}", req.target) : mcpName(req.tool) ? t("Arguments: {0}", req.target) : t("Path: {0}", req.target),
    t("Folder: {0}", req.folder),
    ...(req.rule ? [t("Rule: {0}", req.rule)] : []),
    t("Reason: {0}", headlineOf(req.reason, req.rule)),
    ...(req.undo ? ["", req.undo] : []),
    "",
    t("No answer within {0} s means Deny.", seconds),
  ].join("\n");
  const deny = t("Deny");
  const allow = t("Allow");
  const always = t(ALWAYS_ALLOW);
  // Deny comes first: it is the dialog's primary (focused) button, so a stray Enter (the modal
  // takes focus from wherever the developer is typing) denies. Allow must be a deliberate click.
  const items = req.command ? [deny, allow, always] : [deny, allow];
  return vscode.window.showWarningMessage(askTitle(req), { modal: true, detail }, ...items).then((choice) => (choice === always ? ALWAYS_ALLOW : choice === allow ? "Allow" : choice === deny ? "Deny" : undefined));
}

export function tellTooLate(req: AskRequest, answer: ModalChoice): void {
  if (answer === undefined) return;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Damage Control: your "{0}" for {1}\'s {2} call came too late. The call had already been denied when the time ran out; nothing was changed.',
      answer,
      agentName(req.agent),
      toolLabel(req.tool),
    ),
  );
}
