// Percentiles and timing helpers for the benchmarks.

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
}

/** The mean without the `cut` share of the smallest and of the largest values. */
export function trimmedMean(xs: number[], cut: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length * cut);
  return mean(s.slice(k, s.length - k));
}

export function summarize(samples: number[]): { median: number; p99: number; mean: number; n: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { median: percentile(s, 50), p99: percentile(s, 99), mean: mean(s), n: s.length };
}

/** Milliseconds of each of `runs` calls of fn, after `warm` calls that are not counted. */
export function timeRuns(fn: () => unknown, runs: number, warm = 5): number[] {
  for (let i = 0; i < warm; i++) fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    fn();
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  return t;
}

/** Runs fn once per item, `rounds` times, and returns per-call times in microseconds. */
export function timeEach<T>(items: T[], rounds: number, fn: (item: T) => unknown): number[] {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const item of items) {
      const t = process.hrtime.bigint();
      fn(item);
      out.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
  return out;
}

/**
 * Percentiles over items rather than samples: each item's median over the rounds (`samples` as
 * timeEach returns them, rounds × items), then the median and p99 across items. The p99 is then
 * the 99th-percentile corpus case, not the one sample a scheduler preemption or a GC pause hit.
 */
export function perItem(samples: number[], items: number): { median: number; p99: number } {
  const rounds = Math.floor(samples.length / items);
  const each: number[] = [];
  for (let i = 0; i < items; i++) {
    const xs: number[] = [];
    for (let r = 0; r < rounds; r++) xs.push(samples[r * items + i]);
    xs.sort((a, b) => a - b);
    each.push(xs[xs.length >> 1]);
  }
  const s = each.sort((a, b) => a - b);
  return { median: percentile(s, 50), p99: percentile(s, 99) };
}
