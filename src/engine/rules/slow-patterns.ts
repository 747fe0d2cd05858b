// Provably equivalent rewrites of slow regex shapes that users' rules files are known to contain.
// The classic flag pattern `\brm\s+(-[^\s]*)*-[rRf]` nests `*` inside `*`: on a long run of dashes
// the engine backtracks exponentially (seconds, then the decision is cut off and refused). Its
// language is the same as `-([^\s]*-)?[rRf]`'s, which runs in linear time:
//
//   (-C*)*-   with C a class that contains "-" (here [^\s])
//   = "-" ∪ "-S1-S2…-Sk-" (k ≥ 1, Si ∈ C*)   = "-" ∪ "-T-" (T ∈ C*, since "-" ∈ C)
//   = -(C*-)?
//
// and likewise `(-C+)*-` = -(C+-)?. Only capture-group numbering differs, which `test()` (the only
// use the engine makes of a pattern) does not see. parse.ts compiles the rewritten source and
// offers the rewrite as a quick fix on the pattern.

/** The classes the rewrite knows contain "-": \S, [^\s], [^ ], [^\s]-style negations of blanks. */
const CLASS = String.raw`(?:\[\^\\s\]|\\S|\[\^ \]|\[\^\\t \]|\[\^ \\t\]|\.)`;
const SHAPE = new RegExp(String.raw`\((\?:)?-(${CLASS})([*+])\)\*-`, "g");

/** The pattern with every known slow shape rewritten, or undefined when there is none. */
export function rewriteSlowPattern(source: string): string | undefined {
  let changed = false;
  const out = source.replace(SHAPE, (whole: string, nc: string | undefined, cls: string, q: string, at: number) => {
    // An escaped "(" is a literal, not a group.
    if (isEscaped(source, at)) return whole;
    changed = true;
    return `-(${nc ?? ""}${cls}${q}-)?`;
  });
  return changed ? out : undefined;
}

function isEscaped(s: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && s[i] === "\\"; i--) n++;
  return n % 2 === 1;
}
