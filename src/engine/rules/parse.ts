// Rules file → compiled rules + diagnostics with exact ranges.
// The `yaml` package keeps source offsets on every node; we turn them into zero-based
// line/character ranges that the CLI, the editor and the panel all show the same way.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, type Pair, type Scalar } from "yaml";
import type { BashPatternRule, Diagnostic, Exception, DiagnosticCode, PathRule, Range, RuleSet, Severity } from "../types";
import { findUnreachable } from "./overlap";
import { rewriteSlowPattern } from "./slow-patterns";
import { nestsQuantifiers } from "./regex-risk";
import { closest } from "./similar";

export const RULE_KEYS = ["bashToolPatterns", "zeroAccessPaths", "readOnlyPaths", "noDeletePaths", "disable", "allow"] as const;
export const PATTERN_KEYS = ["id", "pattern", "reason", "ask", "flags", "unless"] as const;
/** Values of a pattern's `unless`: targets whose removal the pattern does not judge. */
export const UNLESS_VALUES = ["regenerable"] as const;
export const ALLOW_KEYS = ["command", "path", "reason", "folder"] as const;
/** A rule id: lowercase words of letters and digits joined by single dashes (`db-reset-prisma`). */
export const RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PATH_ID_PREFIX: Record<PathRule["kind"], string> = { zeroAccess: "zero-access", readOnly: "read-only", noDelete: "no-delete" };

/**
 * The id of a path entry: its list and its path in [a-z0-9-] (`.env` in zeroAccessPaths is
 * `zero-access-env`, `~/.ssh/` is `zero-access-home-ssh`, `.git/` in noDeletePaths is
 * `no-delete-git`). Stable for as long as the entry is written the same way.
 */
export function pathRuleId(kind: PathRule["kind"], path: string): string {
  const slug = path
    .replace(/^~(?=\/|$)/, "home")
    .toLowerCase()
    .replace(/\*/g, "-any-")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${PATH_ID_PREFIX[kind]}${slug ? "-" + slug : ""}`;
}
type PathKey = "zeroAccessPaths" | "readOnlyPaths" | "noDeletePaths";
const PATH_KIND: Record<PathKey, PathRule["kind"]> = {
  zeroAccessPaths: "zeroAccess",
  readOnlyPaths: "readOnly",
  noDeletePaths: "noDelete",
};
/** `g` and `y` make RegExp.test stateful, `d` is useless here: only these flags are accepted. */
const ALLOWED_FLAGS = /^[imsu]*$/;

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
  /** Pattern ids → the line they are written on. */
  const ids = new Map<string, number>();
  const pathIds = new Set<string>();
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
    if (name === "bashToolPatterns") {
      readPatterns(pair.value, keyRange);
    } else if (name === "zeroAccessPaths" || name === "readOnlyPaths" || name === "noDeletePaths") {
      readPaths(name, pair.value, keyRange);
    } else if (name === "disable") {
      readDisable(pair.value, keyRange);
    } else if (name === "allow") {
      readAllow(pair.value, keyRange);
    } else {
      const guess = closest(name, RULE_KEYS);
      report(
        "error",
        "unknown-key",
        `Unknown key "${name}".` + (guess ? ` Did you mean "${guess}"?` : ` Known keys: ${RULE_KEYS.join(", ")}.`),
        keyRange,
        guess ? { title: `Change to "${guess}"`, range: keyRange, newText: guess } : undefined,
      );
    }
  }

  for (const rule of rules.bashToolPatterns) {
    if (rule.id !== undefined && pathIds.has(rule.id)) {
      report("error", "duplicate-id", `Duplicate id "${rule.id}": a path entry is already named so. A layer names a rule by its id, so each must be unique.`, rule.range ?? rangeOf(0, 0));
    }
  }

  for (const u of findUnreachable(rules)) {
    report("warning", "unreachable", u.message, u.range);
  }
  return finish(rules, diagnostics);

  function readPatterns(value: YamlNode | null, keyRange: Range): void {
    if (value === null || (isScalar(value) && value.value === null)) return;
    if (!isSeq(value)) {
      report("error", "wrong-type", "bashToolPatterns must be a list of {pattern, reason, ask?} entries.", value ? nodeRange(value) : keyRange);
      return;
    }
    const seen = new Map<string, number>();
    for (const item of value.items as YamlNode[]) {
      if (!isMap(item)) {
        report("error", "wrong-type", "Each bashToolPatterns entry must be a mapping with pattern and reason.", nodeRange(item));
        continue;
      }
      let id: Scalar | undefined;
      let pattern: Scalar | undefined;
      let reason: Scalar | undefined;
      let ask: Scalar | undefined;
      let flags: Scalar | undefined;
      let unless: Scalar | undefined;
      let broken = false;
      for (const p of item.items as Pair<YamlNode, YamlNode>[]) {
        const k = isScalar(p.key) ? String(p.key.value) : "";
        const v = p.value;
        if (!(PATTERN_KEYS as readonly string[]).includes(k)) {
          const guess = closest(k, PATTERN_KEYS);
          const r = nodeRange(p.key);
          report(
            "error",
            "unknown-key",
            `Unknown key "${k}" in a bash pattern.` + (guess ? ` Did you mean "${guess}"?` : ` Known keys: ${PATTERN_KEYS.join(", ")}.`),
            r,
            guess ? { title: `Change to "${guess}"`, range: r, newText: guess } : undefined,
          );
          broken = true;
          continue;
        }
        if (!isScalar(v)) {
          report("error", "wrong-type", `"${k}" must be a single value.`, v ? nodeRange(v) : nodeRange(p.key));
          broken = true;
          continue;
        }
        if (k === "id") id = v;
        else if (k === "pattern") pattern = v;
        else if (k === "reason") reason = v;
        else if (k === "ask") ask = v;
        else if (k === "unless") unless = v;
        else flags = v;
      }
      const entryRange = nodeRange(item);
      if (!pattern || typeof pattern.value !== "string" || pattern.value === "") {
        report("error", "wrong-type", "Missing pattern: each entry needs a non-empty `pattern` string (a JavaScript regex).", pattern ? nodeRange(pattern) : entryRange);
        continue;
      }
      const source = pattern.value;
      let flagText = "";
      if (flags) {
        if (typeof flags.value !== "string" || !ALLOWED_FLAGS.test(flags.value)) {
          report("error", "invalid-flags", `flags must be a string of i, m, s or u (got ${JSON.stringify(flags.value)}). g and y are not allowed.`, nodeRange(flags));
          broken = true;
        } else {
          flagText = [...new Set(flags.value)].join("");
        }
      }
      let regex: RegExp | undefined;
      // A slow shape with a linear equivalent is compiled as the equivalent (slow-patterns.ts).
      const fast = rewriteSlowPattern(source);
      try {
        regex = new RegExp(fast ?? source, flagText);
      } catch (e) {
        const message = (e as Error).message.replace(/^Invalid regular expression: /, "");
        const fixText = escapeOffending(source);
        const r = nodeRange(pattern);
        report(
          "error",
          "invalid-regex",
          `Invalid regular expression: ${message}`,
          r,
          fixText !== undefined ? { title: "Escape the offending character", range: r, newText: quoteYaml(fixText) } : undefined,
        );
        broken = true;
      }
      if (regex && fast !== undefined) {
        const r = nodeRange(pattern);
        report("information", "slow-regex", "This pattern's (-…)*- shape backtracks exponentially on a long run of dashes; it is run as the equivalent linear form instead.", r, {
          title: "Rewrite as the equivalent linear pattern",
          range: r,
          newText: quoteYaml(fast),
        });
      } else if (regex && nestsQuantifiers(source)) {
        report("warning", "slow-regex", "This regex nests unbounded quantifiers (like (a+)+) and can take exponential time on some commands; such a decision is cut off and refused after the time limit.", nodeRange(pattern));
      }
      if (!reason || typeof reason.value !== "string" || reason.value.trim() === "") {
        report("error", "missing-reason", "Missing reason: the agent is told this reason when the rule refuses a command.", reason ? nodeRange(reason) : nodeRange(pattern));
        broken = true;
      }
      let askValue = false;
      if (ask) {
        if (typeof ask.value !== "boolean") {
          report("error", "invalid-ask", `ask must be true or false (got ${JSON.stringify(ask.value)}).`, nodeRange(ask));
          broken = true;
        } else askValue = ask.value;
      }
      let idValue: string | undefined;
      if (id) {
        const v = typeof id.value === "string" || typeof id.value === "number" ? String(id.value) : undefined;
        if (v === undefined || !RULE_ID.test(v)) {
          report("error", "invalid-id", `id must be lowercase letters, digits and single dashes, like db-reset-prisma (got ${JSON.stringify(id.value)}).`, nodeRange(id));
          broken = true;
        } else if (ids.has(v)) {
          report("error", "duplicate-id", `Duplicate id "${v}": it is already used on line ${ids.get(v)! + 1}. A layer names a rule by its id, so each must be unique.`, nodeRange(id));
          broken = true;
        } else {
          ids.set(v, nodeRange(id).start.line);
          idValue = v;
        }
      }
      const identity = `${askValue ? "ask" : "block"}|${flagText}/${source}`;
      const first = seen.get(identity);
      if (first !== undefined) {
        report("warning", "duplicate", `Duplicate pattern: the same regex is already listed on line ${first + 1}.`, entryRange, {
          title: "Remove the duplicate entry",
          range: wholeLines(entryRange),
          newText: "",
        });
        continue;
      }
      seen.set(identity, entryRange.start.line);
      if (unless && !(UNLESS_VALUES as readonly unknown[]).includes(unless.value)) {
        report("error", "wrong-type", `unless must be one of ${UNLESS_VALUES.join(", ")} (got ${JSON.stringify(unless.value)}).`, nodeRange(unless));
        broken = true;
      }
      if (broken || !regex) continue;
      const rule: BashPatternRule = {
        kind: "bashPattern",
        pattern: source,
        regex,
        reason: String(reason!.value).trim(),
        ask: askValue,
        ...(idValue !== undefined && { id: idValue }),
        range: entryRange,
        ...(unless && { unless: unless.value as BashPatternRule["unless"] }),
      };
      rules.bashToolPatterns.push(rule);
    }
  }

  /** `disable: [id, …]`: rules of a weaker layer (the defaults) this file switches off, by id or path text. */
  function readDisable(value: YamlNode | null, keyRange: Range): void {
    if (value === null || (isScalar(value) && value.value === null)) return;
    if (!isSeq(value)) {
      report("error", "wrong-type", "disable must be a list of rule ids (or path entries as written).", value ? nodeRange(value) : keyRange);
      return;
    }
    const list: string[] = [];
    for (const item of value.items as YamlNode[]) {
      if (!isScalar(item) || typeof item.value !== "string" || item.value.trim() === "") {
        report("error", "wrong-type", `Each disable entry must be a rule id (got ${describe(item)}).`, nodeRange(item));
        continue;
      }
      const entry = item.value.trim();
      if (list.includes(entry)) {
        report("warning", "duplicate", `"${entry}" is already disabled above.`, nodeRange(item));
        continue;
      }
      list.push(entry);
      (rules.disableRanges ??= {})[entry] = nodeRange(item);
    }
    rules.disable = list;
  }

  /** `allow:` exceptions: {command: regex | path: entry, reason, folder?} — each loosens one refusal. */
  function readAllow(value: YamlNode | null, keyRange: Range): void {
    if (value === null || (isScalar(value) && value.value === null)) return;
    if (!isSeq(value)) {
      report("error", "wrong-type", "allow must be a list of {command, reason} or {path, reason} entries.", value ? nodeRange(value) : keyRange);
      return;
    }
    const list: Exception[] = [];
    for (const item of value.items as YamlNode[]) {
      const r = nodeRange(item);
      if (!isMap(item)) {
        report("error", "wrong-type", "Each allow entry must be a mapping with command (or path) and reason.", r);
        continue;
      }
      const got: Partial<Record<(typeof ALLOW_KEYS)[number], Scalar>> = {};
      let broken = false;
      for (const p of item.items as Pair<YamlNode, YamlNode>[]) {
        const k = isScalar(p.key) ? String(p.key.value) : "";
        if (!(ALLOW_KEYS as readonly string[]).includes(k)) {
          const guess = closest(k, ALLOW_KEYS);
          const kr = nodeRange(p.key);
          report("error", "unknown-key", `Unknown key "${k}" in an exception.` + (guess ? ` Did you mean "${guess}"?` : ` Known keys: ${ALLOW_KEYS.join(", ")}.`), kr, guess ? { title: `Change to "${guess}"`, range: kr, newText: guess } : undefined);
          broken = true;
          continue;
        }
        if (!isScalar(p.value) || typeof p.value.value !== "string" || p.value.value.trim() === "") {
          report("error", "wrong-type", `"${k}" must be a non-empty string.`, p.value ? nodeRange(p.value) : nodeRange(p.key));
          broken = true;
          continue;
        }
        got[k as (typeof ALLOW_KEYS)[number]] = p.value;
      }
      if (broken) continue;
      if (!got.reason) {
        report("error", "missing-reason", "Missing reason: say why this exception is safe here.", r);
        continue;
      }
      if ((got.command ? 1 : 0) + (got.path ? 1 : 0) !== 1) {
        report("error", "wrong-type", "An exception names exactly one of command (a regex) or path.", r);
        continue;
      }
      const reason = String(got.reason.value).trim();
      const folder = got.folder ? String(got.folder.value).trim() : undefined;
      if (folder !== undefined && !folder.startsWith("/")) {
        report("error", "wrong-type", "folder must be an absolute path (the folder this exception is for).", nodeRange(got.folder!));
        continue;
      }
      if (got.command) {
        const source = String(got.command.value);
        let regex: RegExp;
        try {
          regex = new RegExp(source);
        } catch (e) {
          report("error", "invalid-regex", `Invalid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}`, nodeRange(got.command));
          continue;
        }
        if (nestsQuantifiers(source)) report("warning", "slow-regex", "This regex nests unbounded quantifiers (like (a+)+) and can take exponential time on some commands.", nodeRange(got.command));
        list.push({ kind: "command", pattern: source, regex, reason, range: r, ...(folder !== undefined && { folder }) });
      } else {
        list.push({ kind: "path", path: String(got.path!.value).trim(), reason, range: r, ...(folder !== undefined && { folder }) });
      }
    }
    rules.allow = list;
  }

  function readPaths(key: PathKey, value: YamlNode | null, keyRange: Range): void {
    if (value === null || (isScalar(value) && value.value === null)) return;
    if (!isSeq(value)) {
      report("error", "wrong-type", `${key} must be a list of paths.`, value ? nodeRange(value) : keyRange);
      return;
    }
    const seen = new Map<string, number>();
    for (const item of value.items as YamlNode[]) {
      const r = nodeRange(item);
      if (!isScalar(item) || typeof item.value !== "string") {
        report("error", "wrong-type", `Each ${key} entry must be a path string (got ${describe(item)}).`, r);
        continue;
      }
      const path = item.value.trim();
      if (path === "") {
        report("error", "empty-path", "Empty path.", r);
        continue;
      }
      const first = seen.get(path);
      if (first !== undefined) {
        report("warning", "duplicate", `Duplicate path: "${path}" is already listed on line ${first + 1}.`, r, {
          title: "Remove the duplicate entry",
          range: wholeLines(r),
          newText: "",
        });
        continue;
      }
      seen.set(path, r.start.line);
      if (path.startsWith("!") && path.length > 1) {
        // `!entry`: a carve-out of this list (see RuleSet.exceptions).
        rules.exceptions ??= { zeroAccess: [], readOnly: [], noDelete: [] };
        rules.exceptions[PATH_KIND[key]].push({ kind: PATH_KIND[key], path: path.slice(1), range: r });
        continue;
      }
      // Path entries are named by their list and path; two paths with the same name (`.env` and
      // `env/`) get -2, -3 … in file order.
      const base = pathRuleId(PATH_KIND[key], path);
      let id = base;
      for (let n = 2; pathIds.has(id); n++) id = `${base}-${n}`;
      pathIds.add(id);
      rules[key].push({ kind: PATH_KIND[key], path, id, range: r });
    }
  }
}

function finish(rules: RuleSet, diagnostics: Diagnostic[]): ParsedRules {
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { rules, diagnostics, ok: !diagnostics.some((d) => d.severity === "error") };
}

function firstLine(s: string): string {
  return s.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
}

function describe(node: YamlNode | null): string {
  if (node === null) return "nothing";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  if (isScalar(node)) return node.value === null ? "null" : typeof node.value;
  return "something else";
}

/** Extends a range to whole lines, so a quick fix that deletes an entry leaves no blank line. */
function wholeLines(r: Range): Range {
  return { start: { line: r.start.line, character: 0 }, end: { line: r.end.line + 1, character: 0 } };
}

/**
 * For an invalid regex, the smallest repair that is clearly right: escape the first special
 * character that the engine rejects (an unbalanced paren or bracket, a lone quantifier).
 * Returns undefined when no single escape makes the regex valid.
 */
export function escapeOffending(source: string): string | undefined {
  for (let i = 0; i < source.length; i++) {
    if (source[i] === "\\") {
      i++;
      continue;
    }
    if ("()[]{}*+?|".includes(source[i])) {
      const candidate = source.slice(0, i) + "\\" + source.slice(i);
      try {
        new RegExp(candidate);
        return candidate;
      } catch {
        /* try the next special character */
      }
    }
  }
  return undefined;
}

/** Single-quoted YAML keeps backslashes literal, which is what a regex wants. */
function quoteYaml(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
