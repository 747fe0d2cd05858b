// One tool call, decided once. Two of our hooks can see the same call: VS Code runs every hook
// file it finds (~/.copilot/hooks and the repository's .github/hooks, and Claude-format files
// with chat.useClaudeHooks), and maps both "PreToolUse" and "preToolUse" entries onto PreToolUse.
// Each copy reaches the endpoint as its own request. The first one for a key decides (and asks
// the human, and writes the ledger line); a copy that arrives while it is pending, or within the
// window after it settled, gets the same answer and is neither asked nor recorded again.
export class OnceWithin<T> {
  private readonly entries = new Map<string, { value: Promise<T>; settledAt?: number }>();

  constructor(
    /** How long after the first answer a copy still shares it. */
    readonly windowMs = 5000,
    private readonly now: () => number = () => Date.now(),
    /**
     * The most settled answers kept: a flood of distinct calls within the window must not grow
     * the map without bound. Past it the oldest settled answers go first (a copy arriving after
     * that is decided again, as if it came late); calls still being decided are never dropped.
     */
    readonly maxSettled = 1024,
  ) {}

  /** Runs fn for the first caller of `key`; later callers within the window share its result. No key: always runs. */
  run(key: string | undefined, fn: () => Promise<T>): { value: Promise<T>; first: boolean } {
    if (key === undefined) return { value: fn(), first: true };
    this.sweep();
    const seen = this.entries.get(key);
    if (seen) return { value: seen.value, first: false };
    const entry: { value: Promise<T>; settledAt?: number } = { value: Promise.resolve() as unknown as Promise<T> };
    entry.value = fn().finally(() => {
      entry.settledAt = this.now();
      this.settledOrder.push(key);
    });
    this.entries.set(key, entry);
    return { value: entry.value, first: true };
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Settled keys in the order they settled, so the expired and the over-the-bound ones are always
   * at the front: each call looks only at those, never at the whole map (whose size grows with the
   * request rate).
   */
  private readonly settledOrder: string[] = [];
  private head = 0;

  private sweep(): void {
    const now = this.now();
    // Keep room for the entry about to be added.
    while (this.head < this.settledOrder.length) {
      const key = this.settledOrder[this.head]!;
      const e = this.entries.get(key);
      const settledCount = this.settledOrder.length - this.head;
      if (e && e.settledAt !== undefined && now - e.settledAt <= this.windowMs && settledCount < this.maxSettled) break;
      this.entries.delete(key);
      this.head++;
    }
    // Compact the queue now and then, so the array does not keep every key ever settled.
    if (this.head > 1024 && this.head * 2 > this.settledOrder.length) {
      this.settledOrder.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * The key two copies of one call share: the agent's session and tool-call id (the guard only
 * dedupes calls that carry one), and what the call is (tool + target in the engine's vocabulary,
 * and the folder), so that two different calls can never share an answer.
 */
export function callKey(d: { sessionId?: string; toolUseId?: string; tool: string; target: string; folder: string }): string {
  return JSON.stringify([d.sessionId ?? "", d.toolUseId ?? "", d.tool.toLowerCase(), d.target, d.folder]);
}
