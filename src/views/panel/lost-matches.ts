// The panel's health line must not say "healthy" about a rule that was changed into one that no
// longer matches what it matched (issue 38: an escaped "(" left `git push` unguarded while the
// panel said "Rules file healthy"). Each folder's bash patterns are remembered from its last
// working state; a pattern that is new is compared with the pattern it replaced (the same place
// in an equally long list, else the nearest gone one within a typo's reach) on its examples (the
// ledger's commands for the old rule, the old regex's literal reading). A finding stays until
// that rule changes again, and compares later edits with the rule as it was before the first.
// Pure: no `vscode`, no fs.
import { lostMatches, previousVersion } from "../regex-fixes";

export interface LostMatch {
  /** 0-based line of the rule in its file. */
  line: number;
  pattern: string;
  previous: string;
  /** What the previous version matched and this one does not. */
  examples: string[];
}

export class LostMatchTracker {
  private readonly last = new Map<string, string[]>();
  /** Per folder, per pattern as it is now. */
  private readonly found = new Map<string, Map<string, LostMatch>>();

  /** The findings for `folder` after its rules became `patterns` (a broken file's state is not a
   *  version: the comparison waits for the next working one); `seen` gives the commands the
   *  ledger saw a rule (by its text) decide. */
  update(folder: string, patterns: readonly { pattern: string; line?: number }[], seen: (rule: string) => string[], broken = false): LostMatch[] {
    let found = this.found.get(folder);
    if (!found) this.found.set(folder, (found = new Map()));
    const prev = this.last.get(folder);
    const now = patterns.map((p) => p.pattern);
    if (!broken) this.last.set(folder, now);
    if (prev && !broken) {
      const nowSet = new Set(now);
      const prevSet = new Set(prev);
      const gone = prev.filter((p) => !nowSet.has(p));
      const before = new Map(found);
      for (const p of [...found.keys()]) if (!nowSet.has(p)) found.delete(p);
      now.forEach((p, i) => {
        if (prevSet.has(p)) return;
        const replaced = prev.length === now.length && !nowSet.has(prev[i]) ? prev[i] : previousVersion(p, gone);
        if (replaced === undefined) return;
        // A rule changed twice is judged against what it was before the first change.
        const origin = before.get(replaced)?.previous ?? replaced;
        const examples = lostMatches(origin, p, seen(origin));
        if (examples.length) found.set(p, { line: 0, pattern: p, previous: origin, examples });
      });
    }
    const lineOf = new Map(patterns.map((p) => [p.pattern, p.line ?? 0]));
    return [...found.values()].map((f) => ({ ...f, line: lineOf.get(f.pattern) ?? 0 }));
  }
}
