// The normalized text the bash patterns are tested on, and the variants beside it.
//
// Text: program name (no directory), then the arguments unquoted and single-spaced. Arguments a
// program only treats as data (echo's text, a grep pattern, a commit message, the files a viewer
// shows) are replaced by DATA, so `echo "rm -rf /"` or `man sudo` cannot match a pattern written
// for the command they merely mention.
//
// Variants: reference patterns such as `\bgit\s+clean\s+(-[^\s]*)*-[fd]` only see a flag in some
// positions. Rather than special-casing rules, each command is also offered in a few equivalent
// spellings: bundled short flags split (`-xf` → `-x -f`), each flag moved to the front, the
// operands before the flags, and the `-- pathspec` tail first. An operand that starts with `-`
// (after `--`) is written `./-x` wherever it moves, so `rm -- -rf` never turns into `rm -rf`.
import { MAX_VARIANTS } from "./limits";

/** Stands for an argument that is data to the program. */
export const DATA = "…";

/** `/usr/bin/git` → `git`; `python3.12` stays (interpreters are matched by family elsewhere). */
export function programName(value: string): string {
  const slash = value.lastIndexOf("/");
  return slash >= 0 ? value.slice(slash + 1) : value;
}

export interface Presented {
  /** Program and, for tools with subcommands, the subcommand (`git reset`). */
  head: string[];
  /** Arguments as shown, in order. */
  args: string[];
  /** No reordering variants (order carries meaning the patterns must not lose). */
  fixedOrder?: boolean;
  /** Extra spellings computed by the program's own knowledge (`git push +main` → `--force`). */
  extra?: string[][];
}

const SHORT_BUNDLE = /^-[A-Za-z]{2,}$/;

function isFlag(a: string): boolean {
  return a.length > 1 && a.startsWith("-") && a !== "--";
}

/** `-rf` → `-r -f`; other words unchanged. */
export function splitFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  let operandsOnly = false;
  for (const a of args) {
    if (!operandsOnly && SHORT_BUNDLE.test(a)) for (const c of a.slice(1)) out.push("-" + c);
    else out.push(a);
    if (a === "--") operandsOnly = true;
  }
  return out;
}

export function render(p: Presented): { text: string; variants?: string[] } {
  const text = textOf(p);
  const variants = variantsOf(p, text);
  return variants ? { text, variants } : { text };
}

/** The text of a presented command: its head, then its arguments, single-spaced. */
export function textOf(p: Presented): string {
  return spelled(p.head.join(" "), p.args);
}

function spelled(head: string, args: readonly string[]): string {
  return args.length ? head + " " + args.join(" ") : head;
}

/**
 * Where every character of a variant comes from: the text and the program's extra spellings.
 * A variant's words are words of these, or a flag letter split off a bundle (`-xvs` → `-x`), or
 * an operand after `--` written `./op`. So a piece of a variant that has no space, does not begin
 * with `.` or `/` and is not `-`, `-x` alone, is a piece of the source: rules/prefilter.ts skips
 * spelling the variants out when no rule that missed the text has its literal in the source.
 */
export function sourceOf(p: Presented, text: string): string {
  if (!p.extra?.length) return text;
  const head = p.head.join(" ");
  return [text, ...p.extra.map((args) => spelled(head, args))].join("\n");
}

/** The other spellings of a presented command (none when nothing can vary). */
export function variantsOf(p: Presented, text: string): string[] | undefined {
  // Most commands have no flag, no `--` and no extra spelling: nothing to vary.
  if (!p.extra?.length && !p.args.some((a) => a.startsWith("-"))) return undefined;
  const head = p.head.join(" ");
  const join = (args: readonly string[]) => spelled(head, args);
  const seen = new Set<string>([text]);
  const variants: string[] = [];
  const add = (args: readonly string[]) => {
    if (variants.length >= MAX_VARIANTS) return;
    const t = join(args);
    if (!seen.has(t)) {
      seen.add(t);
      variants.push(t);
    }
  };
  for (const args of [p.args, ...(p.extra ?? [])]) {
    const split = splitFlags(args);
    add(split);
    if (p.fixedOrder) continue;
    const dd = split.indexOf("--");
    const before = dd < 0 ? split : split.slice(0, dd);
    const after = dd < 0 ? [] : split.slice(dd + 1);
    const flags = before.filter(isFlag);
    if (flags.length === 0 && dd < 0) continue;
    const safeAfter = after.map((a) => (a.startsWith("-") ? "./" + a : a));
    const operands = [...before.filter((a) => !isFlag(a)), ...safeAfter];
    add([...flags, ...operands]);
    add([...operands, ...flags]);
    if (dd >= 0) add(["--", ...after, ...before]);
    for (const f of new Set(flags)) {
      const i = before.indexOf(f);
      add([f, ...before.slice(0, i), ...before.slice(i + 1), ...(dd >= 0 ? ["--", ...after] : [])]);
    }
  }
  return variants.length ? variants : undefined;
}

/**
 * A command's variants, spelled out the first time they are asked for (only when some rule that
 * missed the text could match one, rules/prefilter.ts). Kept as one member of the command, so a
 * copy of the command (`{ ...c, span }`) keeps them.
 */
export class Spellings {
  readonly source: string;
  private spelled?: string[] | null;

  constructor(
    private readonly presented: Presented,
    private readonly text: string,
  ) {
    this.source = sourceOf(presented, text);
  }

  variants(): string[] | undefined {
    if (this.spelled === undefined) this.spelled = variantsOf(this.presented, this.text) ?? null;
    return this.spelled ?? undefined;
  }

  /** Have the variants been spelled out (for the tests that show both paths are taken)? */
  get spelledOut(): boolean {
    return this.spelled !== undefined;
  }
}

/** Every other spelling of an executed command, whether given or spelled on demand. */
export function variantsOfCommand(c: { readonly variants?: readonly string[]; readonly spellings?: Spellings }): readonly string[] | undefined {
  return c.variants ?? c.spellings?.variants();
}
