// Which editor documents are rules files, and engine ranges in VS Code's terms.
import * as path from "node:path";
import * as vscode from "vscode";
import type { Range } from "../engine/types";
import type { GuardHost } from "./guard-host";

export const RULES_BASENAME = "damage-control-rules.yaml";

export function isRulesDocument(doc: vscode.TextDocument, host: GuardHost): boolean {
  if (doc.uri.scheme !== "file" && doc.uri.scheme !== "untitled") return false;
  if (path.basename(doc.uri.fsPath) === RULES_BASENAME) return true;
  return (host.guard?.rulesStates() ?? []).some((s) => s.file === doc.uri.fsPath);
}

export function toVsRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
