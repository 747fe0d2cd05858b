// The contract between the walker (shell syntax → argv) and the program handlers (argv → what
// the program does). Handlers recurse through the Runner: a wrapper runs its wrapped argv, a shell
// runs its code, an interpreter runs the commands its code spawns.
import type { Access, Span } from "../types";
import type { Code } from "./code";
import type { Presented } from "./normalize";
import type { Scope } from "./scope";
import type { Sink } from "./sink";
import type { ExecutedCommand, Narrow } from "./types";
import type { Stdin } from "./stdin";
import type { Arg } from "./words";

export interface Invocation {
  /** Normalized program name (`git`, never `/usr/bin/git`). */
  name: string;
  /** Arguments after the program word. */
  args: Arg[];
  /** The program word itself. */
  program: Arg;
  scope: Scope;
  stdin: Stdin;
  /** The whole invocation in the original command line. */
  span: Span;
  depth: number;
}

export interface Runner {
  readonly sink: Sink;
  /** Runs an argv (a wrapped command, an xargs command line); returns what it prints. */
  run(argv: Arg[], scope: Scope, stdin: Stdin, span: Span, depth: number): RunResult;
  /** Parses and runs shell code (`bash -c`, `eval`, a heredoc fed to sh). */
  runCode(code: Code, scope: Scope, stdin: Stdin, depth: number, why: string): void;
  /** Records the command as the patterns will see it; returns its normalized text. */
  emit(inv: Pick<Invocation, "span">, presented: Presented, span?: Span): string;
  /** Records a command whose text is already normalized (a wrapper around its wrapped command). */
  emitText(text: string, span: Span, at?: number, confined?: ExecutedCommand["confined"]): void;
  /** Records a path the command touches (resolved against the scope's cwd). */
  path(inv: Pick<Invocation, "scope">, arg: Arg, access: Access, recursive: boolean, via: string, narrow?: Narrow): void;
  /** Something that cannot be known statically: the decider asks. */
  uncertain(why: string, span: Span, target?: Access, via?: string): void;
}

export interface RunResult {
  /** What the command prints on stdout (for the next element of a pipeline). */
  stdout: Stdin;
  /** Normalized text of the command (for a wrapper's own text). */
  text?: string;
}

/** A program's knowledge: what it runs, which words are data, which paths it touches. */
export type Handler = (inv: Invocation, r: Runner) => RunResult | void;
