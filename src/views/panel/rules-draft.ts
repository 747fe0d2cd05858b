// The structured rules editor's model: the draft is the YAML text itself. Rows are read from it,
// every edit is applied to it with yaml's document API (so comments, order and the quoting of
// untouched entries are kept), and its diagnostics are the engine's parseRules diagnostics of that
// very text, mapped to the row they fall on: the panel shows exactly what the YAML editor shows.
// No `vscode`, no fs: the panel view does the I/O.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, YAMLMap, YAMLSeq, type Document, type Node as YamlNode } from "yaml";
import { parse as parseYaml } from "yaml";
import { quoteYaml } from "../../engine/rules/parse-context";
import { parseRules } from "../../engine/rules/parse";
import { regexExamples, regexFixes } from "../regex-fixes";
import type { Diagnostic } from "../../engine/types";
import { english, type Translate } from "../translate";
import { ENTRY_VALUE_KEY, RULE_LISTS, type PanelDiagnostic, type RowDiagnostics, type RuleEdit, type RuleList, type RuleRow } from "./messages";

export interface ReadDraft {
  rows: RuleRow[];
  /** Per list, per row index: [first line, last line] (0-based) in the text. */
  ranges: Record<RuleList, [number, number][]>;
  /** Set when the structured editor cannot edit this text (syntax errors, not a mapping). */
  readOnly?: string;
}

export interface CheckedDraft extends ReadDraft {
  diagnostics: RowDiagnostics;
  /** The engine's diagnostics, in the order their `index` refers to (quick fixes). */
  engine: Diagnostic[];
}

const emptyLists = <T>(make: () => T): Record<RuleList, T> =>
  ({ bashToolPatterns: make(), toolNamePatterns: make(), zeroAccessPaths: make(), readOnlyPaths: make(), noDeletePaths: make() }) as Record<RuleList, T>;

function parse(text: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, keepSourceTokens: false });
  return { doc, lines };
}

const scalarText = (n: unknown): string | undefined => (isScalar(n) && n.value !== null && n.value !== undefined ? String(n.value) : undefined);

/** The rows of a rules text, with the lines each occupies. */
export function readRows(text: string, t: Translate = english): ReadDraft {
  const { doc, lines } = parse(text);
  const rows: RuleRow[] = [];
  const ranges = emptyLists<[number, number][]>(() => []);
  if (doc.errors.length > 0) return { rows, ranges, readOnly: t("The file has YAML syntax errors: fix them in the editor (Open in Editor).") };
  const root = doc.contents;
  if (root !== null && !isMap(root) && !(isScalar(root) && (root.value === null || root.value === ""))) {
    return { rows, ranges, readOnly: t("The file is not a mapping of rule lists: fix it in the editor (Open in Editor).") };
  }
  const lineOf = (offset: number) => lines.linePos(offset).line - 1;
  for (const list of RULE_LISTS) {
    const seq = isMap(root) ? root.get(list, true) : undefined;
    if (!isSeq(seq)) continue;
    for (const item of seq.items as YamlNode[]) {
      const r = item?.range;
      const start = r ? lineOf(r[0]) : 0;
      // range[1] is the end of the node's value; range[2] would include trailing comments.
      const end = r ? lineOf(Math.max(r[0], r[1] - 1)) : start;
      ranges[list].push([start, end]);
      const valueKey = ENTRY_VALUE_KEY[list];
      if (valueKey && isMap(item)) {
        const ask = item.get("ask", true);
        // An effect rule (`effect: destroy backups`, issue 23) shows and edits its effect in the value column.
        rows.push({ list, value: scalarText(item.get(valueKey, true)) ?? (list === "bashToolPatterns" ? scalarText(item.get("effect", true)) : undefined) ?? "", reason: scalarText(item.get("reason", true)) ?? "", ask: isScalar(ask) && ask.value === true, line: start });
      } else {
        rows.push({ list, value: scalarText(item) ?? "", line: start });
      }
    }
  }
  return { rows, ranges };
}

function toPanel(d: Diagnostic, index: number): PanelDiagnostic {
  const r = d.range;
  return {
    line: r.start.line,
    character: r.start.character,
    endLine: r.end.line,
    endCharacter: r.end.character,
    severity: d.severity,
    message: d.message,
    code: d.code,
    index,
    ...(d.fix && { fixTitle: d.fix.title }),
  };
}

/** An invalid regex's quick fix in the panel is the YAML editor's first one (regex-fixes.ts): the
 *  repair that keeps the rule matching its literal reading, titled with what it matches. The
 *  engine's "escape the offending character" made `(unclosed` need a literal "(" (issue 38). */
function meaningKeepingFix(text: string, d: Diagnostic): Diagnostic {
  if (d.code !== "invalid-regex" || !d.fix) return d;
  const at = (p: { line: number; character: number }) => offsetOf(text, p.line, p.character);
  let source: unknown;
  try {
    source = parseYaml(text.slice(at(d.fix.range.start), at(d.fix.range.end)));
  } catch {
    return d;
  }
  if (typeof source !== "string") return d;
  const examples = regexExamples({ source });
  const [best] = regexFixes(source, examples);
  if (!best) return d;
  const what = best.kind === "close" ? `Close the group: ${best.pattern}` : best.kind === "remove" ? `Remove the stray character: ${best.pattern}` : `Escape the offending character (match it literally): ${best.pattern}`;
  const title = examples.length === 0 ? what : best.lost.length === 0 ? `${what} — still matches ${best.matches.map((e) => JSON.stringify(e)).join(", ")}` : `${what} — changes the rule: no longer matches ${best.lost.map((e) => JSON.stringify(e)).join(", ")}`;
  return { ...d, fix: { ...d.fix, title, newText: quoteYaml(best.pattern) } };
}

/** Rows plus the engine's diagnostics of this text, each on the row whose lines it starts in. */
export function checkDraft(text: string, t: Translate = english): CheckedDraft {
  const read = readRows(text, t);
  const engine = parseRules(text).diagnostics.map((d) => meaningKeepingFix(text, d));
  const rows = emptyLists<PanelDiagnostic[][]>(() => []);
  for (const list of RULE_LISTS) rows[list] = read.ranges[list].map(() => []);
  const file: PanelDiagnostic[] = [];
  engine.forEach((d, i) => {
    const line = d.range.start.line;
    for (const list of RULE_LISTS) {
      const at = read.ranges[list].findIndex(([a, b]) => line >= a && line <= b);
      if (at >= 0) {
        rows[list][at].push(toPanel(d, i));
        return;
      }
    }
    file.push(toPanel(d, i));
  });
  return { ...read, engine, diagnostics: { rows, file, hasErrors: engine.some((d) => d.severity === "error") } };
}

export type EditResult = { ok: true; text: string; structural: boolean } | { ok: false; message: string };

/** Applies one edit to the draft text, in place. `engine` is checkDraft(text).engine (for "fix"). */
export function applyEdit(text: string, edit: RuleEdit, engine: Diagnostic[] = [], t: Translate = english): EditResult {
  if (edit.op === "revert") return { ok: false, message: "revert is done by the panel view" };
  if (edit.op === "fix") {
    const d = engine[edit.diagnostic];
    if (!d?.fix) return { ok: false, message: t("That problem has no quick fix.") };
    const at = (p: { line: number; character: number }) => offsetOf(text, p.line, p.character);
    return { ok: true, text: text.slice(0, at(d.fix.range.start)) + d.fix.newText + text.slice(at(d.fix.range.end)), structural: true };
  }
  const { doc } = parse(text);
  if (doc.errors.length > 0) return { ok: false, message: t("The file has YAML syntax errors: fix them in the editor (Open in Editor).") };
  if (doc.contents === null || (isScalar(doc.contents) && (doc.contents.value === null || doc.contents.value === ""))) {
    doc.contents = new YAMLMap() as never;
  }
  if (!isMap(doc.contents)) return { ok: false, message: t("The file is not a mapping of rule lists.") };
  const root = doc.contents as unknown as YAMLMap<unknown, unknown>;
  let seq: unknown = root.get(edit.list, true);
  if (!isSeq(seq)) {
    if (edit.op !== "add") return { ok: false, message: t("There is no {0} list.", edit.list) };
    seq = new YAMLSeq();
    // An empty `key:` (null) is replaced; a missing key is appended after the others.
    root.set(edit.list, seq);
  }
  const items = (seq as YAMLSeq<unknown>).items;
  const inRange = (i: number) => i >= 0 && i < items.length;
  switch (edit.op) {
    case "add": {
      const valueKey = ENTRY_VALUE_KEY[edit.list];
      if (valueKey) {
        const map = new YAMLMap();
        map.set(valueKey, quoted(""));
        map.set("reason", "");
        items.push(map as never);
      } else {
        items.push(quoted("") as never);
      }
      return { ok: true, text: doc.toString(), structural: true };
    }
    case "delete":
      if (!inRange(edit.index)) return { ok: false, message: t("No such row.") };
      items.splice(edit.index, 1);
      return { ok: true, text: doc.toString(), structural: true };
    case "move": {
      if (!inRange(edit.index) || !inRange(edit.to)) return { ok: false, message: t("No such row.") };
      const [node] = items.splice(edit.index, 1);
      items.splice(edit.to, 0, node);
      return { ok: true, text: doc.toString(), structural: true };
    }
    case "set": {
      if (!inRange(edit.index)) return { ok: false, message: t("No such row.") };
      const item = items[edit.index];
      const valueKey = ENTRY_VALUE_KEY[edit.list];
      if (!valueKey) {
        if (edit.field !== "value" || typeof edit.value !== "string") return { ok: false, message: t("A path entry has only its path.") };
        if (isScalar(item)) setScalar(item, edit.value);
        else items[edit.index] = quoted(edit.value) as never;
        return { ok: true, text: doc.toString(), structural: false };
      }
      if (!isMap(item)) return { ok: false, message: t("This entry is not a {pattern, reason} mapping: fix it in the editor.") };
      if (edit.field === "ask") {
        if (edit.value === true) item.set("ask", true);
        else if (item.has("ask")) item.delete("ask");
      } else {
        const key = edit.field === "value" ? (edit.list === "bashToolPatterns" && item.has("effect") && !item.has("pattern") ? "effect" : valueKey) : "reason";
        const node = item.get(key, true);
        if (isScalar(node)) setScalar(node, String(edit.value), { plainWhenNew: key !== valueKey });
        else item.set(key, key === valueKey ? quoted(String(edit.value)) : String(edit.value));
      }
      return { ok: true, text: doc.toString(), structural: false };
    }
  }
}

/** A new scalar in single quotes: a regex keeps its backslashes as written, a path starting with
 *  `*` is not read as an alias. */
function quoted(value: string): Scalar {
  const s = new Scalar(value);
  s.type = Scalar.QUOTE_SINGLE;
  return s;
}

/** Changes a scalar's value, keeping its style and comments; a plain scalar whose new text would
 *  not read back as the same string (`*.pem`, `yes`, `: x`) becomes single-quoted. */
function setScalar(node: Scalar, value: string, o: { plainWhenNew?: boolean } = {}): void {
  // A field the panel created empty ("") is written plain once it has text, when plain is safe.
  if (o.plainWhenNew && node.value === "") node.type = Scalar.PLAIN;
  node.value = value;
  if (node.type === Scalar.PLAIN || node.type === undefined) {
    let same = false;
    try {
      const back = parseDocument(`k: ${value}`);
      same = back.errors.length === 0 && (back.toJS() as { k?: unknown } | null)?.k === value;
    } catch {
      /* an alias without anchor (`*.pem`) and the like: not plain-safe */
    }
    if (!same) node.type = Scalar.QUOTE_SINGLE;
  }
}

function offsetOf(text: string, line: number, character: number): number {
  let offset = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf("\n", offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + character);
}
