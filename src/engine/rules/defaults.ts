// The embedded default rules: what applies when a workspace has no rules file.
// Kept as YAML text (bundled by esbuild's text loader) so that "Create Rules File from Defaults"
// writes exactly what is in force, comments included.
import text from "./default-rules.yaml";
import { parseRules } from "./parse";
import type { RuleSet } from "../types";

export const DEFAULT_RULES_TEXT: string = text;

let cached: RuleSet | undefined;

export function defaultRules(): RuleSet {
  if (!cached) {
    const parsed = parseRules(DEFAULT_RULES_TEXT);
    if (!parsed.ok) throw new Error("embedded default rules are invalid: " + parsed.diagnostics[0]?.message);
    cached = parsed.rules;
  }
  return cached;
}
