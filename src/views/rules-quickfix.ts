// Quick fixes where the repair is clear: unknown key → the key it resembles; duplicate → remove
// it. An invalid regex gets every repair regex-fixes.ts finds, each titled with what it does to
// the rule's own examples (the commands the ledger saw it decide, the reading of its previous
// version): the ones that keep them first, and only such a one is preferred. No fix saves the
// file: each is applied as an edit in the open editor (Undo takes it back; Save puts it in force).
import * as vscode from "vscode";
import { parse as parseYaml } from "yaml";
import { quoteYaml } from "../engine/rules/parse-context";
import type { GuardHost } from "./guard-host";
import { regexExamples, regexFixes, previousVersion, type RegexFix } from "./regex-fixes";
import type { RulesDiagnostics } from "./rules-diagnostics";
import { toVsRange } from "./rules-document";

/** Runs the edit in the editor (not through the code action's own edit, which VS Code saves at
 *  once under files.refactoring.autoSave). */
export const APPLY_RULE_FIX_COMMAND = "damageControl.applyRuleFix";
/** Ledger entries read for a rule's examples. */
const LEDGER_EXAMPLES = 2000;

const quote = (s: string) => JSON.stringify(s);

export class RulesQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(
    private readonly diagnostics: RulesDiagnostics,
    private readonly host?: GuardHost,
  ) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const d of this.diagnostics.engineDiagnosticsFor(doc.uri)) {
      if (!d.fix) continue;
      const where = toVsRange(d.range);
      if (!where.intersection(range) && !where.contains(range.start)) continue;
      const diagnostics = this.diagnostics.collection.get(doc.uri)?.filter((v) => v.range.isEqual(where) && v.code === d.code);
      const fixRange = toVsRange(d.fix.range);
      if (d.code === "invalid-regex") {
        actions.push(...this.regexActions(doc, fixRange, diagnostics));
        continue;
      }
      actions.push(fixAction(doc.uri, fixRange, d.fix.newText, d.fix.title, diagnostics, true));
    }
    return actions;
  }

  private regexActions(doc: vscode.TextDocument, range: vscode.Range, diagnostics: vscode.Diagnostic[] | undefined): vscode.CodeAction[] {
    let source: unknown;
    try {
      source = parseYaml(doc.getText(range));
    } catch {
      return [];
    }
    if (typeof source !== "string") return [];
    const { previous, seen } = this.history(doc, source);
    const examples = regexExamples({ source, previous, seen });
    const t = vscode.l10n.t;
    return regexFixes(source, examples).map((f, i) => {
      const what = titleOf(f, t);
      const title = examples.length === 0 ? t("{0} (no example of the rule to check it against)", what) : f.lost.length === 0 ? t("{0} — still matches {1}", what, f.matches.map(quote).join(", ")) : t("{0} — changes the rule: no longer matches {1}", what, f.lost.map(quote).join(", "));
      return fixAction(doc.uri, range, quoteYaml(f.pattern), title, diagnostics, i === 0 && examples.length > 0 && f.lost.length === 0, f.lost);
    });
  }

  /** The rule's previous version (among the patterns in force: the last good ones while the file
   *  is broken) and the commands the ledger saw it decide. */
  private history(doc: vscode.TextDocument, source: string): { previous?: string; seen: string[] } {
    const guard = this.host?.guard;
    const state = guard?.rulesStates().find((s) => s.file === doc.uri.fsPath);
    if (!guard || !state) return { seen: [] };
    const previous = previousVersion(
      source,
      state.rules.bashToolPatterns.map((r) => r.pattern),
    );
    const rule = previous ?? source;
    const seen: string[] = [];
    for (const e of guard.ledgerFor(state.folder).tail(LEDGER_EXAMPLES).reverse()) {
      if (e.rule === rule && e.tool.toLowerCase() === "bash" && !e.target.startsWith("[") && !seen.includes(e.target)) seen.push(e.target);
      if (seen.length >= 3) break;
    }
    return { ...(previous !== undefined && { previous }), seen };
  }
}

function titleOf(f: RegexFix, t: typeof vscode.l10n.t): string {
  if (f.kind === "close") return t("Close the group: {0}", f.pattern);
  if (f.kind === "remove") return t("Remove the stray character: {0}", f.pattern);
  return t("Escape the offending character (match it literally): {0}", f.pattern);
}

function fixAction(uri: vscode.Uri, range: vscode.Range, newText: string, title: string, diagnostics: vscode.Diagnostic[] | undefined, preferred: boolean, lost: string[] = []): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.command = { command: APPLY_RULE_FIX_COMMAND, title, arguments: [uri.toString(), [range.start.line, range.start.character, range.end.line, range.end.character], newText, lost] };
  action.diagnostics = diagnostics;
  action.isPreferred = preferred;
  return action;
}

/** The quick fix's command: the edit in the open editor (one undo step), never saved here, and a
 *  note that says so (and which examples the rule stops matching, when it does). */
export function registerApplyRuleFix(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(APPLY_RULE_FIX_COMMAND, async (uri: string, at: [number, number, number, number], newText: string, lost: string[] = []) => {
      const target = vscode.Uri.parse(uri);
      const range = new vscode.Range(at[0], at[1], at[2], at[3]);
      const t = vscode.l10n.t;
      const list = lost.map(quote).join(", ");
      // A fix that changes what the rule matches is applied only when the user says so.
      if (lost.length) {
        const change = t("Change the Rule");
        const keep = t("Keep the Rule");
        // "Keep the Rule" first: the dialog's primary (focused) button, so a stray Enter changes nothing.
        const pick = await vscode.window.showWarningMessage(t("This fix changes what the rule matches: it would no longer match {0}.", list), { modal: true, detail: t("The fixes listed first keep the rule matching its examples.") }, keep, change);
        if (pick !== change) return;
      }
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
      let ok: boolean;
      if (editor) ok = await editor.edit((b) => b.replace(range, newText));
      else {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(target, range, newText);
        ok = await vscode.workspace.applyEdit(edit);
      }
      if (!ok) return void vscode.window.showWarningMessage(t("Damage Control could not change the rules file."));
      // Said as it is: with auto save on (the web workbench's default) the editor saves it soon.
      const autoSave = vscode.workspace.getConfiguration("files", target).get<string>("autoSave", "off") !== "off";
      if (lost.length) {
        void vscode.window.showWarningMessage(
          autoSave
            ? t("Changed in the editor, and auto save will save it: the rule no longer matches {0}. Undo (Ctrl+Z) takes it back.", list)
            : t("Changed in the editor, not saved: the rule no longer matches {0}. Undo (Ctrl+Z) takes it back; Save puts it in force.", list),
        );
      } else {
        void vscode.window.showInformationMessage(
          autoSave ? t("Changed in the editor, and auto save will save it: the rule still matches its examples. Undo (Ctrl+Z) takes it back.") : t("Changed in the editor, not saved: Save puts the rule in force; Undo (Ctrl+Z) takes it back."),
        );
      }
    }),
  );
}
