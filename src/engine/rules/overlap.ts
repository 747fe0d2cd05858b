// Rules that can never decide anything because another rule always wins.
// The strongest verdict wins (block > ask), and the path lists nest:
// zero-access forbids everything read-only forbids, which forbids everything no-delete forbids.
import { minimatch } from "minimatch";
import type { PathRule, Range, RuleSet } from "../types";

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

export function findUnreachable(rules: RuleSet): Unreachable[] {
  const out: Unreachable[] = [];
  const line = (r?: Range) => (r ? ` (line ${r.start.line + 1})` : "");

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
      out.push({
        message: `This ask rule can never fire: the block rule /${winner.pattern}/${line(winner.range)} matches the same commands and a block always wins.`,
        range: rule.range,
      });
    }
  }

  // Paths: an entry covered by another entry of the same or a stronger list.
  const all = [...rules.zeroAccessPaths, ...rules.readOnlyPaths, ...rules.noDeletePaths];
  for (const weak of all) {
    if (!weak.range) continue;
    const cover = all.find((strong) => strong !== weak && STRENGTH[strong.kind] >= STRENGTH[weak.kind] && covers(strong.path, weak.path) && !(strong.path === weak.path && strong.kind === weak.kind));
    if (cover) {
      const same = cover.kind === weak.kind;
      out.push({
        message: same
          ? `"${weak.path}" is already covered by "${cover.path}"${line(cover.range)}.`
          : `"${weak.path}" can never decide: "${cover.path}" in ${LIST_NAME[cover.kind]}${line(cover.range)} already forbids more.`,
        range: weak.range,
      });
    }
  }
  return out;
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
