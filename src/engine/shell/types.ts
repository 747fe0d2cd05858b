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
  /**
   * A privileged command (sudo …) whose wrapped command only lists the system's state
   * (`reads`: `iptables -L`, src/engine/remote/system-reads.ts) or changes the owner or mode of
   * named files (`workspace`: the decider checks they lie in the workspace); an environment dump
   * read through a filter that passes only named variables, none a secret's (`names`).
   */
  confined?: "reads" | "workspace" | "names";
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
  /** A recursive effect that reaches only the files of these kinds (name globs): kinds.ts. */
  only?: readonly string[];
  /** The files are rewritten by a formatter: their meaning is kept (a protected one is an ask). */
  reformat?: boolean;
}

/** How a recursive effect is narrowed: the file kinds it reaches, and whether it only reformats. */
export interface Narrow {
  only: readonly string[];
  reformat?: boolean;
}

/** Something that cannot be known without running the command (a variable target, eval). */
export interface Uncertainty {
  why: string;
  span: Span;
  /** Set when the one unknown is the target of a file access of this kind (`cat "$f"`, an inline
   * script's `open(name)`): the kernel sandbox enforces the path rules on such an access whatever
   * the target turns out to be (src/engine/sandbox/kernel-answers.ts). Absent: anything else. */
  target?: Access;
  /** With `target`: what makes the access (`cat`, `awk -f`, `source`). */
  via?: string;
}

/** What a remote effect does to its resource (docs/remote-effects.md). */
export type RemoteEffectKind = "destroy" | "destroy-all" | "overwrite" | "read-secret" | "exfiltrate" | "send-secret";
/** The class of thing outside the working tree a command reaches. */
export type RemoteTarget = "code-host" | "ci" | "cloud" | "object-storage" | "data-service" | "hosted-service" | "remote-host" | "backups" | "secrets" | "device" | "unknown-cli" | "system";

/** Something a command does outside the working tree: a resource of a service, another machine. */
export interface RemoteEffect {
  effect: RemoteEffectKind;
  target: RemoteTarget;
  /** The program as the analysis names it (`gh`, `aws`, `curl`). */
  program: string;
  /** The resource, as far as the words name it (`acme/site`, `logs-*`); "" when unnamed. */
  resource: string;
  span: Span;
  /** What produced it, for the reason: "gh repo delete", "curl -X DELETE". */
  via: string;
}

export interface CommandAnalysis {
  commands: ExecutedCommand[];
  effects: PathEffect[];
  /** Effects outside the working tree (src/engine/remote/). */
  remote: RemoteEffect[];
  uncertain: Uncertainty[];
  parseErrors: { message: string; span: Span }[];
  /** Git state the command line discards (uncommitted changes, branch tips, stashes, the remote's tip). */
  gitState?: GitStateEffect[];
}

export interface ShellContext {
  cwd: string;
  home: string;
}
