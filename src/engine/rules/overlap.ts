// Rules that can never decide anything because another rule always wins.
// The strongest verdict wins (block > ask), and the path lists nest:
// zero-access forbids everything read-only forbids, which forbids everything no-delete forbids.
import { minimatch } from "minimatch";
import type { BashPatternRule, PathRule, Range, RuleSet } from "../types";
import { requiredLiteral } from "./prefilter";

export interface Unreachable {
  message: string;
  range: Range;
}

const STRENGTH: Record<PathRule["kind"], number> = { zeroAccess: 3, readOnly: 2, noDelete: 1 };
const LIST_NAME: Record<PathRule["kind"], string> = {
  zeroAccess: "zeroAccessPaths",
  readOnly: "readOnlyPaths",
  noDelete: "noDeletePaths",
};

/**
 * Same findings as findUnreachableNaive, without comparing every pair: the twin block rule of an
 * ask rule is looked up by its regex, and the entry covering a path is looked up among the few
 * that can cover it (the same path, a literal folder above it, a bare-name glob). The first
 * cover in list order wins in both, so messages name the same rule.
 */
export function findUnreachable(rules: RuleSet): Unreachable[] {
  const out: Unreachable[] = [];

  const blocks = rules.bashToolPatterns.filter((r) => !r.ask);
  // A regex that needs a literal cannot match "": only the others are run (running a regex the
  // first time compiles it, the largest part of this check on a 1,000-rule file).
  const matchesAll = blocks.find((r) => requiredLiteral(r.regex.source, r.regex.flags) === undefined && ["", "x", "git status", "a b/c"].every((s) => r.regex.test(s)));
  const firstBlock = new Map<string, BashPatternRule>();
  for (const b of blocks) {
    const id = `${b.regex.flags}/${b.regex.source}`;
    if (!firstBlock.has(id)) firstBlock.set(id, b);
  }
  for (const rule of rules.bashToolPatterns) {
    if (!rule.range) continue;
    if (rule === matchesAll) {
      out.push({ message: `This pattern matches every command: every bash call will be refused.`, range: rule.range });
      continue;
    }
    if (!rule.ask) continue;
    const winner = firstBlock.get(`${rule.regex.flags}/${rule.regex.source}`) ?? matchesAll;
    if (winner) {
      out.push({ message: shadowedAskMessage(winner), range: rule.range });
    }
  }

  const all = [...rules.zeroAccessPaths, ...rules.readOnlyPaths, ...rules.noDeletePaths];
  const byPath = new Map<string, number[]>(); // every entry, by its exact text
  const folders = new Map<string, number[]>(); // literal folder entries ("a/b/"), by their text
  const nameGlobs: number[] = []; // bare names that are not plain literals (minimatch decides)
  all.forEach((e, i) => {
    push(byPath, e.path, i);
    if (!e.path.includes("/")) {
      if (!LITERAL_NAME.test(e.path)) nameGlobs.push(i);
    } else if (e.path.endsWith("/") && !/[*?[]/.test(e.path)) push(folders, e.path, i);
  });
  all.forEach((weak, w) => {
    if (!weak.range) return;
    let cover = -1;
    const consider = (s: number) => {
      if (s === w || (cover !== -1 && s >= cover)) return;
      const strong = all[s];
      if (STRENGTH[strong.kind] < STRENGTH[weak.kind] || (strong.path === weak.path && strong.kind === weak.kind)) return;
      if (covers(strong.path, weak.path)) cover = s;
    };
    for (const s of byPath.get(weak.path) ?? []) consider(s);
    if (weak.path.includes("/")) {
      for (let i = weak.path.indexOf("/"); i !== -1; i = weak.path.indexOf("/", i + 1)) {
        for (const s of folders.get(weak.path.slice(0, i + 1)) ?? []) consider(s);
      }
    } else {
      for (const s of nameGlobs) consider(s);
    }
    if (cover !== -1) {
      out.push({ message: coveredMessage(weak, all[cover]), range: weak.range });
    }
  });
  return out;
}

/** A bare name minimatch can only match by equality: no glob, brace, extglob, escape, negation or comment. */
const LITERAL_NAME = /^[^*?[\]{}()!#+@|\\]+$/;

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/**
 * The plain O(n²) statement of the same findings, kept as the reference the indexed version
 * is tested against (test/unit/rules-scale.test.ts): same findings, same order, same messages.
 */
export function findUnreachableNaive(rules: RuleSet): Unreachable[] {
  const out: Unreachable[] = [];

  // Bash patterns: an ask rule with the same regex as a block rule, or any ask rule when a block
  // rule matches every command.
  const blocks = rules.bashToolPatterns.filter((r) => !r.ask);
  const matchesAll = blocks.find((r) => ["", "x", "git status", "a b/c"].every((s) => r.regex.test(s)));
  for (const rule of rules.bashToolPatterns) {
    if (!rule.range) continue;
    if (rule === matchesAll) {
      out.push({ message: `This pattern matches every command: every bash call will be refused.`, range: rule.range });
      continue;
    }
    if (!rule.ask) continue;
    const twin = blocks.find((b) => b.regex.source === rule.regex.source && b.regex.flags === rule.regex.flags);
    const winner = twin ?? matchesAll;
    if (winner) {
      out.push({ message: shadowedAskMessage(winner), range: rule.range });
    }
  }

  // Paths: an entry covered by another entry of the same or a stronger list.
  const all = [...rules.zeroAccessPaths, ...rules.readOnlyPaths, ...rules.noDeletePaths];
  for (const weak of all) {
    if (!weak.range) continue;
    const cover = all.find((strong) => strong !== weak && STRENGTH[strong.kind] >= STRENGTH[weak.kind] && covers(strong.path, weak.path) && !(strong.path === weak.path && strong.kind === weak.kind));
    if (cover) {
      out.push({ message: coveredMessage(weak, cover), range: weak.range });
    }
  }
  return out;
}

const lineNote = (r?: Range) => (r ? ` (line ${r.start.line + 1})` : "");

function shadowedAskMessage(winner: BashPatternRule): string {
  return `This ask rule can never fire: the block rule /${winner.pattern}/${lineNote(winner.range)} matches the same commands and a block always wins.`;
}

function coveredMessage(weak: PathRule, cover: PathRule): string {
  return cover.kind === weak.kind
    ? `"${weak.path}" is already covered by "${cover.path}"${lineNote(cover.range)}.`
    : `"${weak.path}" can never decide: "${cover.path}" in ${LIST_NAME[cover.kind]}${lineNote(cover.range)} already forbids more.`;
}

/** True when every path matched by entry `weak` is also matched by entry `strong`. */
function covers(strong: string, weak: string): boolean {
  if (strong === weak) return true;
  const strongIsName = !strong.includes("/");
  const weakIsName = !weak.includes("/");
  if (strongIsName) {
    // A bare name matches that name in any folder, so it covers a bare name it matches.
    return weakIsName && minimatch(weak, strong, { dot: true }) && !/[*?[]/.test(weak);
  }
  // A folder entry covers everything below it that is anchored the same way.
  if (strong.endsWith("/") && !/[*?[]/.test(strong)) {
    return !weakIsName && weak.startsWith(strong);
  }
  return false;
}
