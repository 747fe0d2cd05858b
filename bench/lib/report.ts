// The figures of one `npm run bench` run: printed with the ratio to their baseline (measured in
// the same run) and collected for bench/results.json, every figure a {value, unit}.
export type Figure = { value: number; unit: string };
export type Cell = Figure | number | null;

export interface Peer {
  name: string;
  /** What was measured for this row (which program, which API). */
  what: string;
  decide_median_us: Cell;
  decide_p99_us: Cell;
  per_call_ms: Cell;
  /** The hook's own time per tool call as Claude Code logs it (section 6, bench/lib/claude-hook-log.ts). */
  claude_overhead_ms_per_call: Cell;
  /** (median session − median session without a hook) ÷ tool calls: the same end to end, with its noise. */
  claude_session_overhead_ms_per_call?: Cell;
  pi_overhead_ms_per_call: Cell;
  claude_session_ms?: Cell;
  pi_session_ms?: Cell;
}

export const results: Record<string, unknown> & { peers: Peer[] } = { peers: [] };

export const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : n);
export const fig = (value: number, unit: string): Figure => ({ value: round(value), unit });

export function put(section: string, key: string, value: number, unit: string): Figure {
  const f = fig(value, unit);
  ((results[section] ??= {}) as Record<string, Figure>)[key] = f;
  return f;
}

export function show(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** One printed figure: label, value, and `(× r of <baseline>)` when a baseline is given. */
export function line(label: string, value: string, baseline?: { ratio: number; of: string }): void {
  const tail = baseline && Number.isFinite(baseline.ratio) ? `   ${baseline.ratio.toFixed(2)}× ${baseline.of}` : "";
  console.log(`  ${label.padEnd(58)} ${value.padStart(16)}${tail}`);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
