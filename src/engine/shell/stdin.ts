// What a command reads on its standard input: handed along a pipeline by the walker, carried by
// a word's printed output (`$(cmd)`), read by the program handlers.
import type { Code } from "./code";
import type { ExecutedCommand } from "./types";

/**
 * A secret's value travelling in a command's output (issue 36): where it came from and, while it
 * is only printed, the pending "shown to the agent" effect a consumer of the output cancels
 * (`gh auth token | docker login --password-stdin` uses it; `gh auth token` alone shows it).
 */
export interface SecretMark {
  /** What the value is, for the reason: `$GITHUB_TOKEN`, `gh auth token`, the environment. */
  what: string;
  /** Host-name words of the service the secret belongs to (`github`), when known. */
  service?: readonly string[];
  /** The environment as a whole (never tied to one service). */
  whole?: boolean;
  /** Index of the pending "shown" effect in the sink (sink.ts), while nothing consumed it. */
  pending?: number;
  /** The environment dump (`env`, `printenv`) this output is: a name filter confines it (name-filter.ts). */
  dump?: ExecutedCommand;
}

/** What a command reads on its standard input, as far as it is known. */
export type Stdin = StdinKind & { secret?: SecretMark };
type StdinKind =
  /** Nothing piped or redirected: the agent's terminal, i.e. nothing useful. */
  | { kind: "none" }
  /** Known text: a heredoc, a here-string, `echo …|`. */
  | { kind: "text"; code: Code }
  /** Names of paths at or below these directories (`find DIR |`, `git ls-files |`). */
  | { kind: "under"; dirs: string[]; named?: string }
  /** Content only known when it runs (`curl … |`, `< file`). */
  | { kind: "unknown"; from: string; file?: string };

export const NO_STDIN: Stdin = { kind: "none" };
export const UNKNOWN_OUTPUT: Stdin = { kind: "unknown", from: "the output of a command" };
