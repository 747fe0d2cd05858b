// What a command reads on its standard input: handed along a pipeline by the walker, carried by
// a word's printed output (`$(cmd)`), read by the program handlers.
import type { Code } from "./code";

/** What a command reads on its standard input, as far as it is known. */
export type Stdin =
  /** Nothing piped or redirected: the agent's terminal, i.e. nothing useful. */
  | { kind: "none" }
  /** Known text: a heredoc, a here-string, `echo …|`. */
  | { kind: "text"; code: Code }
  /** Names of paths at or below these directories (`find DIR |`, `git ls-files |`). */
  | { kind: "under"; dirs: string[]; named?: string }
  /** Content only known when it runs (`curl … |`, `< file`). */
  | { kind: "unknown"; from: string };

export const NO_STDIN: Stdin = { kind: "none" };
export const UNKNOWN_OUTPUT: Stdin = { kind: "unknown", from: "the output of a command" };
