// The repairs offered for a rule whose regex does not compile, judged by what each one makes the
// rule match. A quick fix must never quietly change what a rule refuses: the fixes that keep the
// rule matching its own examples (closing the group the author opened) come first, and a fix that
// stops matching one says which, in its title. Pure (no `vscode`, no fs): unit-tested in
// test/unit/regex-fixes.test.ts; the YAML editor's quick fix (rules-quickfix.ts) and the panel's
// health line (panel/lost-matches.ts) use it.
import { escapeOffending } from "../engine/rules/parse-patterns";

export type RegexFixKind = "close" | "remove" | "escape";

export interface RegexFix {
  kind: RegexFixKind;
  /** The fixed regex (compiles). */
  pattern: string;
  /** The rule's examples the fixed regex matches, and those it does not. */
  matches: string[];
  lost: string[];
}

/** Compiles, or undefined. */
export function compile(source: string, flags = ""): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

interface Scan {
  /** Offsets of the `(` still open at the end. */
  open: number[];
  /** Offsets of the `)` that close nothing. */
  stray: number[];
  /** A `[` class is still open at the end. */
  inClass: boolean;
}

function scan(source: string): Scan {
  const open: number[] = [];
  const stray: number[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") open.push(i);
    else if (c === ")") {
      if (open.length) open.pop();
      else stray.push(i);
    }
  }
  return { open, stray, inClass };
}

/** The candidate repairs of an invalid regex, in the order of how likely each keeps the author's
 *  meaning: close what was opened, remove the stray character, escape it (which makes it a
 *  literal character the commands must contain). Each compiles; no two are the same. */
function candidates(source: string, flags: string): { kind: RegexFixKind; pattern: string }[] {
  const out: { kind: RegexFixKind; pattern: string }[] = [];
  const s = scan(source);
  const base = s.inClass ? source + "]" : source;
  const closed = base + ")".repeat(scan(base).open.length);
  if (closed !== source) out.push({ kind: "close", pattern: closed });
  // Remove the character the engine would escape: the unmatched `(`/`)` or the quantifier with
  // nothing to repeat.
  const escaped = escapeOffending(source);
  if (escaped !== undefined) {
    const at = [...escaped].findIndex((c, i) => c !== source[i]);
    out.push({ kind: "remove", pattern: source.slice(0, at) + source.slice(at + 1) });
  }
  for (const i of [...s.open].reverse()) out.push({ kind: "remove", pattern: source.slice(0, i) + source.slice(i + 1) });
  for (const i of s.stray) out.push({ kind: "remove", pattern: source.slice(0, i) + source.slice(i + 1) });
  if (escaped !== undefined) out.push({ kind: "escape", pattern: escaped });
  const seen = new Set<string>();
  return out.filter((c) => c.pattern !== "" && compile(c.pattern, flags) && !seen.has(c.pattern) && seen.add(c.pattern));
}

/** The repairs of `source`, each with the examples it still matches and those it no longer does;
 *  those that keep every example first (a stable order otherwise). */
export function regexFixes(source: string, examples: readonly string[], flags = ""): RegexFix[] {
  const fixes = candidates(source, flags).map((c) => {
    const re = compile(c.pattern, flags)!;
    return { ...c, matches: examples.filter((e) => re.test(e)), lost: examples.filter((e) => !re.test(e)) };
  });
  return fixes.map((f, i) => ({ f, i })).sort((a, b) => a.f.lost.length - b.f.lost.length || a.i - b.i).map(({ f }) => f);
}

const CLASS_SAMPLE: Record<string, string> = { s: " ", S: "x", w: "x", W: "-", d: "1", D: "x", t: "\t", n: "\n", b: "", B: "", A: "", z: "", Z: "" };

/**
 * A command the regex reads as, literally: `\bgit\s+push\b` → "git push". Every quantifier is
 * taken once (a valid choice for *, +, ? and {n,m} alike), a class gives its first member (an
 * excluding one "x"), an alternation its first branch. Undefined when the regex has lookarounds
 * or backreferences (no literal reading). Works on an invalid regex too: it is how the author's
 * intent is read before any repair.
 */
export function sampleOf(source: string): string | undefined {
  let out = "";
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const n = source[++i] ?? "";
      if (/[1-9k]/.test(n)) return undefined;
      out += n in CLASS_SAMPLE ? CLASS_SAMPLE[n] : n;
    } else if (c === "[") {
      let j = i + 1;
      const negated = source[j] === "^";
      if (negated) j++;
      let first: string | undefined;
      for (; j < source.length && !(source[j] === "]" && j > i + 1 + (negated ? 1 : 0)); j++) {
        if (source[j] === "\\") {
          const n = source[++j] ?? "";
          first ??= n in CLASS_SAMPLE ? CLASS_SAMPLE[n] || "x" : n;
        } else first ??= source[j];
      }
      out += negated ? (first === "x" ? "y" : "x") : (first ?? "");
      i = j;
    } else if (c === "(") {
      depth++;
      if (source[i + 1] === "?") {
        if (source[i + 2] === ":") i += 2;
        else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") i = source.indexOf(">", i);
        else return undefined;
      }
    } else if (c === ")") depth = Math.max(0, depth - 1);
    else if (c === "|") {
      // The first branch only: skip to the end of this group (or of the regex).
      let d = 0;
      for (i++; i < source.length; i++) {
        if (source[i] === "\\") i++;
        else if (source[i] === "(") d++;
        else if (source[i] === ")") {
          if (d === 0) {
            depth = Math.max(0, depth - 1);
            break;
          }
          d--;
        }
      }
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(i))) i = source.indexOf("}", i);
    else if ("*+?".includes(c)) continue;
    else if (c === ".") out += "x";
    else if (c === "^" || c === "$") continue;
    else out += c;
  }
  return out.trim() || undefined;
}

/** The rule's examples: the commands the audit ledger saw it decide (`seen`), then the literal
 *  reading of its previous, working version, then of the regex as written now. Each at most once. */
export function regexExamples(o: { source: string; previous?: string; seen?: readonly string[]; flags?: string }): string[] {
  const out: string[] = [...(o.seen ?? [])];
  const prev = o.previous !== undefined ? compile(o.previous, o.flags) : undefined;
  const fromPrev = o.previous !== undefined ? sampleOf(o.previous) : undefined;
  // The previous version's reading is an example only if that version really matched it.
  if (fromPrev && prev?.test(fromPrev)) out.push(fromPrev);
  const now = sampleOf(o.source);
  if (now && !prev) out.push(now);
  return [...new Set(out)];
}

/** Edit distance (small strings: regexes of a rules file), to find a broken rule's previous version. */
export function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The previous version of an edited regex among the patterns in force: the nearest one within a
 *  few characters (a typo's reach), or undefined. */
export function previousVersion(source: string, inForce: readonly string[]): string | undefined {
  let best: { p: string; d: number } | undefined;
  for (const p of inForce) {
    if (p === source) continue;
    const d = distance(p, source);
    if (d <= 3 && (!best || d < best.d)) best = { p, d };
  }
  return best?.p;
}

/** The examples the old regex matched that the new one no longer does (the panel's health line). */
export function lostMatches(oldSource: string, newSource: string, seen: readonly string[] = [], flags = ""): string[] {
  const before = compile(oldSource, flags);
  const after = compile(newSource, flags);
  if (!before || !after) return [];
  const examples = regexExamples({ source: newSource, previous: oldSource, seen: seen.filter((s) => before.test(s)), flags });
  return examples.filter((e) => before.test(e) && !after.test(e));
}
