// One row of the remote-effects tables (table.ts, system.ts, token-printers.ts): program →
// subcommand → effect. Its own module so the per-family tables and table.ts share it.
import type { RemoteEffectKind, RemoteTarget } from "../shell/types";

export interface RemoteRow {
  /** Command words, consecutive, among the first command words; `a|b` alternatives, `*` any word. */
  sub: string[];
  effect: RemoteEffectKind;
  target: RemoteTarget;
  /** Options one of which must be given (`name` or `name=v1|v2*`: the value starts so). */
  when?: string[];
  /** Options that mean nothing happens (a dry run, names only). */
  unless?: string[];
  /** Options that make it total (`--recursive`, `--all`): the effect becomes destroy-all. */
  all?: string[];
  /** The word after the subcommand must match (`aws configure get aws_secret_access_key`). */
  operand?: RegExp;
  /** The subcommand words themselves must match (`ps eww`: BSD flags with `e`). */
  match?: RegExp;
}

/** Verb families: which command words destroy a named resource. */
export type VerbFamily = "cloud" | "hosted";

export interface RemoteProgram {
  rows?: RemoteRow[];
  verbs?: VerbFamily;
  /** The class of resource the CLI's verbs reach. */
  target?: RemoteTarget;
  special?: "http" | "git" | "copy" | "rclone" | "signal" | "mongo";
  /** Command groups that are remote resources for this CLI although they name local settings elsewhere (`circleci context`). */
  remoteGroups?: string[];
}
