// Bounds on the work one command may cost. A command built to be pathological (megabytes of text,
// `bash -c "bash -c …"` nested a hundred deep, a loop over ten thousand words) must not hang the
// engine; when a bound is hit the analysis says so, and the decider asks instead of guessing.

/** Characters of command text analysed at all; longer → a parse error (ask, or block by setting). */
export const MAX_INPUT_CHARS = 100_000;
/** Nesting of code run by code: `bash -c`, `eval`, `$( )`, wrappers, interpreters, xargs. */
export const MAX_DEPTH = 12;
/** Executed commands recorded for one command line. */
export const MAX_COMMANDS = 400;
/** Path effects recorded for one command line. */
export const MAX_EFFECTS = 1_000;
/** Variants (other spellings) produced per executed command. */
export const MAX_VARIANTS = 24;
/** Values a `for` loop body is analysed with; more are analysed as an unknown value. */
export const MAX_LOOP_VALUES = 8;
/** Items of xargs / parallel expanded one by one (e.g. `-I {}`). */
export const MAX_FANOUT = 16;
/** Characters of inline interpreter or SQL code scanned. */
export const MAX_INLINE_CODE = 50_000;
