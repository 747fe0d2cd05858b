// The native modal for an ask. Its title states the reason in a person's words ("Claude Code
// wants to run a command: pushing changes the shared remote — a human decides"); the detail keeps
// the tool, the command or path, the folder and the rule. Buttons: Deny (the default, so a stray
// Enter never approves), Allow, and "Always allow in this folder" when the layered rules can write
// that exception. Cancel or Escape resolve undefined = deny.
import * as vscode from "vscode";
import type { AskRequest } from "../core/asker";
import { agentLabel } from "../engine/agents";
import { headlineOf } from "./panel/feed";
import type { ExceptionWriter } from "./panel/exceptions";
import { logError } from "./log";

/** The agent's name as people know it, from the agents table ("Claude Code", "pi", …). */
export function agentName(agent: string): string {
  return agentLabel(agent);
}

/** The title: who wants what, the reason, and that a human decides. */
export function askTitle(req: AskRequest): string {
  const t = vscode.l10n.t;
  const isCommand = req.tool.toLowerCase() === "bash";
  const what = isCommand ? t("run a command") : t("use {0}", req.tool);
  const reason = headlineOf(req.reason, req.rule);
  return reason ? t("{0} wants to {1}: {2} — a human decides", agentName(req.agent), what, reason) : t("{0} wants to {1} — a human decides", agentName(req.agent), what);
}

export function showAskModal(req: AskRequest, deadline: number, writer?: ExceptionWriter): Thenable<"Allow" | "Deny" | undefined> {
  const t = vscode.l10n.t;
  const isCommand = req.tool.toLowerCase() === "bash";
  const seconds = Math.max(1, Math.round((deadline - Date.now()) / 1000));
  const detail = [
    t("Tool: {0}", req.tool),
    isCommand ? t("Command: {0}", req.target) : t("Path: {0}", req.target),
    t("Folder: {0}", req.folder),
    ...(req.rule ? [t("Rule: {0}", req.rule)] : []),
    t("Reason: {0}", headlineOf(req.reason, req.rule)),
    "",
    t("No answer within {0} s means Deny.", seconds),
  ].join("\n");
  const deny = t("Deny");
  const allow = t("Allow");
  const always = t("Always allow in this folder");
  // Deny comes first: it is the dialog's primary (focused) button, so a stray Enter (the modal
  // takes focus from wherever the developer is typing) denies. Allow must be a deliberate click.
  const items = writer ? [deny, allow, always] : [deny, allow];
  return vscode.window.showWarningMessage(askTitle(req), { modal: true, detail }, ...items).then(async (choice) => {
    if (choice === always && writer) {
      // The human allowed this call; the exception is written for the next ones. A failed write
      // leaves this Allow standing (it was the human's) and says so.
      try {
        await writer({ folder: req.folder, agent: req.agent, tool: req.tool, target: req.target, ...(req.rule && { rule: req.rule }) });
      } catch (e) {
        logError("could not write the folder exception", e);
        void vscode.window.showErrorMessage(t("Damage Control could not write the exception: {0}", (e as Error).message));
      }
      return "Allow";
    }
    return choice === allow ? "Allow" : choice === deny ? "Deny" : undefined;
  });
}

export function tellTooLate(req: AskRequest, answer: "Allow" | "Deny" | undefined): void {
  if (answer === undefined) return;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Damage Control: your "{0}" for {1}\'s {2} call came too late. The call had already been denied when the time ran out; nothing was changed.',
      answer,
      agentName(req.agent),
      req.tool,
    ),
  );
}
