// Text that is run as shell (or interpreter, or SQL) code, with the offset of each of its
// characters in the ORIGINAL command line. Nested code (`bash -c '…'`, `eval`, a heredoc fed to
// sh, `python -c "…"`) is unquoted before it is parsed again, so its positions no longer index the
// original string; carrying the map lets every verdict point at the right substring anyway.
import type { Span } from "../types";

export interface Code {
  readonly text: string;
  /** Original offset of each character of `text` (length = text.length); absent = `base + i`. */
  readonly offsets?: readonly number[];
  /** Offset of character 0 when `offsets` is absent. */
  readonly base: number;
}

export function identityCode(text: string, base = 0): Code {
  return { text, base };
}

/** Original offset of character `i` (clamped to the text). */
export function offsetAt(code: Code, i: number): number {
  if (!code.offsets) return code.base + Math.max(0, Math.min(i, code.text.length));
  const n = code.offsets.length;
  if (n === 0) return code.base;
  if (i >= n) return code.offsets[n - 1] + 1;
  return code.offsets[Math.max(0, i)];
}

/** Original span of the characters [start, end) of `code`. */
export function spanIn(code: Code, start: number, end: number): Span {
  const s = offsetAt(code, start);
  if (end <= start) return { start: s, end: s };
  const e = offsetAt(code, end - 1) + 1;
  return { start: s, end: Math.max(s, e) };
}

/**
 * Builds a Code piece by piece (unquoting a word, joining eval arguments). Pieces that map
 * linearly onto the original are kept as ranges; per-character offsets are only materialized
 * when the pieces are not one contiguous run (most words are: this keeps analysis cheap).
 */
export class CodeBuilder {
  private text = "";
  private readonly pieces: { length: number; start?: number; at?: (i: number) => number }[] = [];

  /** Appends `s`, character i coming from original offset `at(i)`. */
  push(s: string, at: (i: number) => number): void {
    if (s.length === 0) return;
    this.pieces.push({ length: s.length, at });
    this.text += s;
  }

  /** Appends `s`, whose characters come from consecutive original offsets starting at `start`. */
  pushLinear(s: string, start: number): void {
    if (s.length === 0) return;
    this.pieces.push({ length: s.length, start });
    this.text += s;
  }

  /** Appends characters of another code, keeping their offsets. */
  pushCode(c: Code, start = 0, end = c.text.length): void {
    if (!c.offsets) this.pushLinear(c.text.slice(start, end), c.base + start);
    else this.push(c.text.slice(start, end), (i) => offsetAt(c, start + i));
  }

  get length(): number {
    return this.text.length;
  }

  build(fallbackBase: number): Code {
    const ps = this.pieces;
    if (ps.length === 0) return { text: "", base: fallbackBase };
    let linear = ps[0].start !== undefined;
    for (let k = 1; linear && k < ps.length; k++) linear = ps[k].start !== undefined && ps[k].start === ps[k - 1].start! + ps[k - 1].length;
    if (linear) return { text: this.text, base: ps[0].start! };
    const offsets: number[] = [];
    for (const p of ps) for (let i = 0; i < p.length; i++) offsets.push(p.start !== undefined ? p.start + i : p.at!(i));
    return { text: this.text, offsets, base: offsets[0] ?? fallbackBase };
  }
}

/** A slice of a code, keeping offsets. */
export function sliceCode(c: Code, start: number, end = c.text.length): Code {
  if (!c.offsets) return { text: c.text.slice(start, end), base: c.base + start };
  return { text: c.text.slice(start, end), offsets: c.offsets.slice(start, end), base: offsetAt(c, start) };
}
