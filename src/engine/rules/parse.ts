// Rules file → compiled rules + diagnostics with exact ranges.
// The `yaml` package keeps source offsets on every node; we turn them into zero-based
// line/character ranges that the CLI, the editor and the panel all show the same way.
// This file reads the document and dispatches each top-level key to its section's reader
// (parse-patterns.ts, parse-paths.ts, parse-exceptions.ts), then checks across sections.
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode, type Pair } from "yaml";
import type { Diagnostic, DiagnosticCode, Range, RuleSet, Severity } from "../types";
import { findUnreachable } from "./overlap";
import { reportUnknownKey, type ParseContext } from "./parse-context";
import { readAllow, readDisable } from "./parse-exceptions";
import { readPaths } from "./parse-paths";
import { readPatterns } from "./parse-patterns";
import { readSandbox } from "./parse-sandbox";
import { readToolNames } from "./parse-tool-names";

export { ALLOW_KEYS } from "./parse-exceptions";
export { pathRuleId } from "./parse-paths";
export { escapeOffending, PATTERN_KEYS, RULE_ID, UNLESS_VALUES } from "./parse-patterns";
export { TOOL_NAME_KEYS } from "./parse-tool-names";

export const RULE_KEYS = ["bashToolPatterns", "toolNamePatterns", "zeroAccessPaths", "readOnlyPaths", "noDeletePaths", "disable", "allow", "sandbox"] as const;
export interface ParsedRules {
  rules: RuleSet;
  diagnostics: Diagnostic[];
  /** False when any diagnostic is an error: such a file must not replace the rules in force. */
  ok: boolean;
}

export function emptyRuleSet(): RuleSet {
  return { bashToolPatterns: [], zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [] };
}

export function parseRules(text: string): ParsedRules {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const diagnostics: Diagnostic[] = [];
  const rangeOf = (start: number, end: number): Range => {
    const a = lines.linePos(start);
    const b = lines.linePos(Math.max(start, end));
    return { start: { line: a.line - 1, character: a.col - 1 }, end: { line: b.line - 1, character: b.col - 1 } };
  };
  const nodeRange = (node: YamlNode | null | undefined, fallback = 0): Range => {
    const r = node?.range;
    return r ? rangeOf(r[0], r[1]) : rangeOf(fallback, fallback);
  };
  const report = (severity: Severity, code: DiagnosticCode, message: string, range: Range, fix?: Diagnostic["fix"]) => {
    diagnostics.push(fix ? { severity, code, message, range, fix } : { severity, code, message, range });
  };

  for (const err of [...doc.errors, ...doc.warnings]) {
    const [start, end] = err.pos;
    const severity: Severity = doc.errors.includes(err as never) ? "error" : "warning";
    report(severity, "yaml-syntax", `YAML: ${firstLine(err.message)}`, rangeOf(start, end === start ? start + 1 : end));
  }

  const rules = emptyRuleSet();
  const ctx: ParseContext = { rules, report, nodeRange, ids: new Map(), pathIds: new Set() };
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ""))) {
    return finish(rules, diagnostics);
  }
  if (!isMap(root)) {
    report("error", "wrong-type", "The rules file must be a mapping with the keys " + RULE_KEYS.join(", ") + ".", nodeRange(root));
    return finish(rules, diagnostics);
  }

  for (const pair of root.items as Pair<YamlNode, YamlNode>[]) {
    const key = pair.key;
    const name = isScalar(key) ? String(key.value) : "";
    const keyRange = nodeRange(key);
    if (name === "bashToolPatterns") readPatterns(ctx, pair.value);
    else if (name === "toolNamePatterns") readToolNames(ctx, pair.value);
    else if (name === "zeroAccessPaths" || name === "readOnlyPaths" || name === "noDeletePaths") readPaths(ctx, name, pair.value);
    else if (name === "disable") readDisable(ctx, pair.value);
    else if (name === "allow") readAllow(ctx, pair.value);
    else if (name === "sandbox") readSandbox(ctx, pair.value);
    else reportUnknownKey(ctx, name, RULE_KEYS, "", keyRange);
  }

  for (const rule of [...rules.bashToolPatterns, ...(rules.toolNamePatterns ?? [])]) {
    if (rule.id !== undefined && ctx.pathIds.has(rule.id)) {
      report("error", "duplicate-id", `Duplicate id "${rule.id}": a path entry is already named so. A layer names a rule by its id, so each must be unique.`, rule.range ?? rangeOf(0, 0));
    }
  }

  for (const u of findUnreachable(rules)) {
    report("warning", "unreachable", u.message, u.range);
  }
  return finish(rules, diagnostics);
}

function finish(rules: RuleSet, diagnostics: Diagnostic[]): ParsedRules {
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { rules, diagnostics, ok: !diagnostics.some((d) => d.severity === "error") };
}

function firstLine(s: string): string {
  return s.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}
