// Rule counts by kind, as the panel, the status bar and /health show them. Implicit entries
// (the guard protecting its own files) are not the user's rules and are not counted.
import type { RuleSet } from "../engine/types";

export interface RuleCounts {
  total: number;
  bashPatterns: number;
  ask: number;
  zeroAccess: number;
  readOnly: number;
  noDelete: number;
}

export function ruleCounts(rules: RuleSet): RuleCounts {
  const user = <T extends { implicit?: boolean }>(list: T[]) => list.filter((r) => !r.implicit).length;
  const c = {
    bashPatterns: rules.bashToolPatterns.length,
    ask: rules.bashToolPatterns.filter((r) => r.ask).length,
    zeroAccess: user(rules.zeroAccessPaths),
    readOnly: user(rules.readOnlyPaths),
    noDelete: user(rules.noDeletePaths),
  };
  return { total: c.bashPatterns + c.zeroAccess + c.readOnly + c.noDelete, ...c };
}
