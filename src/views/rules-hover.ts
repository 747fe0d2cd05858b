// Hover on a rule in the rules file: how often it fired, and when last.
import * as vscode from "vscode";
import { parseRules } from "../engine/rules/parse";
import type { GuardHost } from "./guard-host";
import type { RuleStats } from "./rule-stats";
import { isRulesDocument, toVsRange } from "./rules-document";

export class RulesHover implements vscode.HoverProvider {
  constructor(
    private readonly host: GuardHost,
    private readonly stats: RuleStats,
  ) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    if (!isRulesDocument(doc, this.host)) return undefined;
    const { rules } = parseRules(doc.getText());
    const all = [
      ...rules.bashToolPatterns.map((r) => ({ text: r.pattern, range: r.range, what: r.ask ? "ask rule" : "block rule" })),
      ...rules.zeroAccessPaths.map((r) => ({ text: r.path, range: r.range, what: "zero-access path" })),
      ...rules.readOnlyPaths.map((r) => ({ text: r.path, range: r.range, what: "read-only path" })),
      ...rules.noDeletePaths.map((r) => ({ text: r.path, range: r.range, what: "no-delete path" })),
    ];
    const hit = all.find((r) => r.range && toVsRange(r.range).contains(pos));
    if (!hit || !hit.range) return undefined;
    const n = this.stats.count(hit.text);
    const last = this.stats.lastFired(hit.text);
    const md = new vscode.MarkdownString(`**Damage Control** ${hit.what}: fired **${n}** time${n === 1 ? "" : "s"}` + (last ? ` (last: ${last})` : "") + ".");
    return new vscode.Hover(md, toVsRange(hit.range));
  }
}
