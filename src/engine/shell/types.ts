// What the shell analysis tells the decider about one bash command line.
import type { Access, Span } from "../types";
import type { Spellings } from "./normalize";
import type { GitStateEffect } from "../undo/types";

/** One command that will execute, in the normalized form the bash patterns are tested against. */
export interface ExecutedCommand {
  /** Program name (no directory), then its arguments, unquoted, single-spaced. */
  text: string;
  /** Other spellings of the same command that patterns should also see (e.g. flags split). */
  variants?: string[];
  /** The same, spelled out on demand (the walker's commands; read both with variantsOfCommand). */
  spellings?: Spellings;
  /** Where it stands in the original command line. */
  span: Span;
}

/** A path the command reads, writes, deletes or lists. */
export interface PathEffect {
  /** Absolute, normalised (not symlink-resolved: the decider does that). */
  path: string;
  access: Access;
  /** The effect reaches everything below `path` (rm -r, cp -r, tar, grep -r …). */
  recursive: boolean;
  span: Span;
  /** What produced it, for the reason: "rm", "> redirection", "sed -i". */
  via: string;
}

/** Something that cannot be known without running the command (a variable target, eval). */
export interface Uncertainty {
  why: string;
  span: Span;
}

export interface CommandAnalysis {
  commands: ExecutedCommand[];
  effects: PathEffect[];
  uncertain: Uncertainty[];
  parseErrors: { message: string; span: Span }[];
  /** Git state the command line discards (uncommitted changes, branch tips, stashes, the remote's tip). */
  gitState?: GitStateEffect[];
}

export interface ShellContext {
  cwd: string;
  home: string;
}
