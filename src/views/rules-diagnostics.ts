// Inline diagnostics on the rules file, from the engine's exact ranges: as you type
// (debounced) and on save. Source "damage-control".
import * as vscode from "vscode";
import { lintRulesText } from "../engine/rules/lint-file";
import * as os from "node:os";
import * as path from "node:path";
import type { Diagnostic } from "../engine/types";
import type { GuardHost } from "./guard-host";
import { isRulesDocument, toVsRange } from "./rules-document";

const SEVERITY: Record<Diagnostic["severity"], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

const DEBOUNCE_MS = 250;

export class RulesDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection("damage-control");
  /** The engine diagnostics behind each document's VS Code diagnostics (for quick fixes). */
  private readonly engineDiagnostics = new Map<string, Diagnostic[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly host: GuardHost) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidSaveTextDocument((d) => this.update(d)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.collection.delete(d.uri);
        this.engineDiagnostics.delete(d.uri.toString());
      }),
    );
    host.on("state", () => this.refreshAll());
    this.refreshAll();
  }

  refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) this.update(d);
  }

  engineDiagnosticsFor(uri: vscode.Uri): Diagnostic[] {
    return this.engineDiagnostics.get(uri.toString()) ?? [];
  }

  private schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => this.update(doc), DEBOUNCE_MS));
  }

  update(doc: vscode.TextDocument): void {
    if (!isRulesDocument(doc, this.host)) return;
    // Exceptions are linted too, against the file over the default floor.
    const dir = path.dirname(doc.uri.fsPath);
    const parsed = lintRulesText(doc.getText(), { root: path.basename(dir) === ".pi" ? path.dirname(dir) : dir, home: os.homedir() });
    this.engineDiagnostics.set(doc.uri.toString(), parsed.diagnostics);
    this.collection.set(
      doc.uri,
      parsed.diagnostics.map((d) => {
        const v = new vscode.Diagnostic(toVsRange(d.range), d.message, SEVERITY[d.severity]);
        v.source = "damage-control";
        v.code = d.code;
        return v;
      }),
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}
