// How often each rule fired: from the audit ledger at start, then live.
import type { DecisionRecord } from "../core/guard";
import type { LedgerEntry } from "../core/ledger";

export class RuleStats {
  private readonly counts = new Map<string, number>();
  private readonly last = new Map<string, string>();

  add(entry: LedgerEntry | DecisionRecord): void {
    if (!entry.rule) return;
    this.counts.set(entry.rule, (this.counts.get(entry.rule) ?? 0) + 1);
    this.last.set(entry.rule, entry.time);
  }

  count(rule: string): number {
    return this.counts.get(rule) ?? 0;
  }

  lastFired(rule: string): string | undefined {
    return this.last.get(rule);
  }
}
