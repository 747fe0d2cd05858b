// One row of the effect table (table.ts): what a program or one of its subcommands does to its
// operands and options. Its own module so the per-family tables (devices.ts) and table.ts share it.
import type { Access } from "../../types";
import type { OptionSpec } from "../options";

export interface EffectRow {
  /** Subcommand words after the program (`ruff format`, `gio trash`). */
  sub?: string[];
  spec?: OptionSpec;
  operands?: Access;
  recursive?: boolean;
  when?: string[];
  unless?: string[];
  optionEffects?: Record<string, Access>;
  noOperands?: "cwd";
  showAs?: string[];
  kinds?: readonly string[];
  uses?: readonly string[];
  /** `uses` only when one of these options is given (`openssl rsa -in KEY -pubout` derives the public key). */
  usesWhen?: readonly string[];
  /** Not `uses` when one of these is given (`openssl rsa -pubout -text` prints the private components). */
  usesUnless?: readonly string[];
  /** The operands are credential files the program loads (`ssh-add KEY`): used, not read. */
  usesOperands?: boolean;
}
