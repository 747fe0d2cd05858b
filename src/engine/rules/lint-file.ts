// A rules file's diagnostics as the editor and `rules lint` show them: the parser's, plus the
// exceptions' (against the file merged over the default floor). Pure.
import type { ParsedRules } from "./parse";
import { parseRules } from "./parse";
import { defaultRules } from "./defaults";
import { lintExceptions, mergeLayers } from "./layers";

export function lintRulesText(text: string, ctx: { root: string; home: string }): ParsedRules {
  const parsed = parseRules(text);
  if (!parsed.rules.allow?.length) return parsed;
  const effective = mergeLayers([{ name: "user", rules: parsed.rules, trusted: true }, { name: "default", rules: defaultRules(), trusted: true }]);
  const diagnostics = [...parsed.diagnostics, ...lintExceptions(parsed.rules, effective, ctx)].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { rules: parsed.rules, diagnostics, ok: !diagnostics.some((d) => d.severity === "error") };
}
