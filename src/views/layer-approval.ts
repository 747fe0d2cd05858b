// Trusted workspace rules, the VS Code side: a workspace rules file that disables defaults or adds
// exceptions shows one notification listing what it drops, "Approve" / "Keep the floor". Approve
// records that exact content (by hash) in the user's state folder and reloads the rules; until
// then only the file's additions apply. Also: the one-time migration notice for files written
// when a rules file replaced the defaults, and the warning for ignored workspace security settings.
import * as fs from "node:fs";
import * as vscode from "vscode";
import { approve } from "../core/approvals";
import { defaultRules } from "../engine/rules/defaults";
import type { Guard } from "../core/guard";
import type { RulesState } from "../core/rules-store";
import { parseRules } from "../engine/rules/parse";

// The buttons' English text; shown (and compared) translated.
export const APPROVE = "Approve";
export const KEEP_FLOOR = "Keep the floor";

/** Notifications already shown this session, by file + content, so a reload does not repeat them. */
const shown = new Set<string>();

export function describePending(p: NonNullable<RulesState["pending"]>): string {
  const t = vscode.l10n.t;
  const parts: string[] = [];
  const drops = p.loosening.drops.map((d) => (d.kind === "bashPattern" || d.kind === "toolName" ? `${d.name} (${d.reason ?? d.text})` : `${d.name}`));
  if (drops.length) parts.push(t("drops {0} default rule(s): {1}", drops.length, drops.join(", ")));
  const ex = p.loosening.exceptions.map((e) => (e.kind === "command" ? `/${e.pattern}/` : e.kind === "tool" ? `tool ${e.tool}` : e.path));
  if (ex.length) parts.push(t("adds {0} exception(s): {1}", ex.length, ex.join(", ")));
  if (p.loosening.unknown.length) parts.push(t("disables unknown ids: {0}", p.loosening.unknown.join(", ")));
  return parts.join("; ");
}

/** Shows the approval notification for a rules state that has a pending loosening (once per content). */
export async function offerApproval(guard: Guard, state: RulesState): Promise<"approved" | "kept" | undefined> {
  const p = state.pending;
  if (!p) return undefined;
  const key = `${p.file}\0${p.text}`;
  if (shown.has(key)) return undefined;
  shown.add(key);
  const rel = vscode.workspace.asRelativePath(p.file);
  const t = vscode.l10n.t;
  const message = t("Damage Control: the workspace rules file {0} {1}. Until you approve this content, only its additions apply and the default floor holds.", rel, describePending(p));
  const approveItem = t(APPROVE);
  const choice = await vscode.window.showWarningMessage(message, approveItem, t(KEEP_FLOOR));
  if (choice !== approveItem) return "kept";
  approve(p.file, p.text, p.items);
  guard.storeFor(state.folder).reload();
  void vscode.window.showInformationMessage(t("Damage Control: {0} is approved; it applies as written (revoke with: damage-control exceptions revoke).", rel));
  return "approved";
}

/**
 * Migration (once per file): a rules file with no `disable:` that leaves default rules out was
 * written when a file replaced the defaults. Those defaults apply now; say which.
 */
export function migrationNotice(context: vscode.ExtensionContext, state: RulesState): void {
  if (state.source !== "file" || state.policy) return;
  const key = `damageControl.layersMigration:${state.file}`;
  if (context.globalState.get(key)) return;
  let text: string;
  try {
    text = fs.readFileSync(state.file, "utf8");
  } catch {
    return;
  }
  const file = parseRules(text).rules;
  if ((file.disable?.length ?? 0) > 0) return;
  const mine = new Set(file.bashToolPatterns.map((r) => r.pattern));
  const left = defaultRules().bashToolPatterns.filter((r) => !mine.has(r.pattern) && r.id);
  void context.globalState.update(key, true);
  if (left.length === 0) return;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      "Damage Control: rules files no longer replace the default rules. {0} default rule(s) that {1} leaves out apply again ({2}). To switch one off for this folder, list its id under disable: in the file (you will be asked to approve), or in your user rules.",
      left.length,
      vscode.workspace.asRelativePath(state.file),
      left.map((r) => r.id).join(", "),
    ),
  );
}

/** Workspace values of security settings that were ignored: one warning. */
export function warnIgnoredSettings(ignored: string[]): void {
  if (ignored.length === 0) return;
  void vscode.window.showWarningMessage(vscode.l10n.t("Damage Control: {0}.", ignored.join("; ")));
}
