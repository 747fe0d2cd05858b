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
    const t = vscode.l10n.t;
    const { rules } = parseRules(doc.getText());
    const all = [
      ...rules.bashToolPatterns.map((r) => ({ text: r.pattern, range: r.range, what: r.ask ? t("ask rule") : t("block rule") })),
      ...(rules.toolNamePatterns ?? []).map((r) => ({ text: r.tool, range: r.range, what: r.ask ? t("ask rule") : t("block rule") })),
      ...rules.zeroAccessPaths.map((r) => ({ text: r.path, range: r.range, what: t("zero-access path") })),
      ...rules.readOnlyPaths.map((r) => ({ text: r.path, range: r.range, what: t("read-only path") })),
      ...rules.noDeletePaths.map((r) => ({ text: r.path, range: r.range, what: t("no-delete path") })),
    ];
    const hit = all.find((r) => r.range && toVsRange(r.range).contains(pos));
    if (!hit || !hit.range) return undefined;
    const n = this.stats.count(hit.text);
    const last = this.stats.lastFired(hit.text);
    // "**Damage Control** block rule: fired **3** times (last: …)." — one sentence per case for translators.
    const count = `**${n}**`;
    const text =
      n === 1
        ? last
          ? t("{0} {1}: fired {2} time (last: {3}).", "**Damage Control**", hit.what, count, last)
          : t("{0} {1}: fired {2} time.", "**Damage Control**", hit.what, count)
        : last
          ? t("{0} {1}: fired {2} times (last: {3}).", "**Damage Control**", hit.what, count, last)
          : t("{0} {1}: fired {2} times.", "**Damage Control**", hit.what, count);
    const md = new vscode.MarkdownString(text);
    return new vscode.Hover(md, toVsRange(hit.range));
  }
}
