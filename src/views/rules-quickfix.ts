// Quick fixes where the repair is clear: unknown key → the key it resembles; duplicate →
// remove it; invalid regex → escape the offending character. The engine computes the edit.
import * as vscode from "vscode";
import type { RulesDiagnostics } from "./rules-diagnostics";
import { toVsRange } from "./rules-document";

export class RulesQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: RulesDiagnostics) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const d of this.diagnostics.engineDiagnosticsFor(doc.uri)) {
      if (!d.fix) continue;
      const where = toVsRange(d.range);
      if (!where.intersection(range) && !where.contains(range.start)) continue;
      const action = new vscode.CodeAction(d.fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(doc.uri, toVsRange(d.fix.range), d.fix.newText);
      action.diagnostics = this.diagnostics.collection.get(doc.uri)?.filter((v) => v.range.isEqual(where) && v.code === d.code);
      action.isPreferred = true;
      actions.push(action);
    }
    return actions;
  }
}
