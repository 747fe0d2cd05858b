// What the readers of a rules file's sections share (parse.ts and the parse-*.ts readers): the
// rule set being built, where a diagnostic goes, how a YAML node maps to a range, the ids taken.
import { isMap, isScalar, isSeq, type Node as YamlNode } from "yaml";
import type { Diagnostic, DiagnosticCode, Range, RuleSet, Severity } from "../types";
import { closest } from "./similar";

export interface ParseContext {
  readonly rules: RuleSet;
  report(severity: Severity, code: DiagnosticCode, message: string, range: Range, fix?: Diagnostic["fix"]): void;
  /** The node's range, or an empty range at `fallback` (an offset) for a missing node. */
  nodeRange(node: YamlNode | null | undefined, fallback?: number): Range;
  /** Pattern ids → the line they are written on. */
  readonly ids: Map<string, number>;
  /** Path entries' ids (a pattern may not take one). */
  readonly pathIds: Set<string>;
}

/**
 * The entries of a list section; undefined when there are none to read — written with no value
 * (`allow:`), or not a list (then with a diagnostic saying what it must be).
 */
export function listItems(ctx: ParseContext, value: YamlNode | null, notAList: string): YamlNode[] | undefined {
  if (value === null || (isScalar(value) && value.value === null)) return undefined;
  if (!isSeq(value)) {
    ctx.report("error", "wrong-type", notAList, ctx.nodeRange(value));
    return undefined;
  }
  return value.items as YamlNode[];
}

/** An unknown key, with the closest known one offered as a quick fix. `where`: " in a bash pattern". */
export function reportUnknownKey(ctx: ParseContext, key: string, known: readonly string[], where: string, range: Range): void {
  const guess = closest(key, known);
  ctx.report(
    "error",
    "unknown-key",
    `Unknown key "${key}"${where}.` + (guess ? ` Did you mean "${guess}"?` : ` Known keys: ${known.join(", ")}.`),
    range,
    guess ? { title: `Change to "${guess}"`, range, newText: guess } : undefined,
  );
}

export function describe(node: YamlNode | null): string {
  if (node === null) return "nothing";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  if (isScalar(node)) return node.value === null ? "null" : typeof node.value;
  return "something else";
}

/** Extends a range to whole lines, so a quick fix that deletes an entry leaves no blank line. */
export function wholeLines(r: Range): Range {
  return { start: { line: r.start.line, character: 0 }, end: { line: r.end.line + 1, character: 0 } };
}

/** Single-quoted YAML keeps backslashes literal, which is what a regex wants. */
export function quoteYaml(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
