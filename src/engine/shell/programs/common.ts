// Small helpers shared by the program handlers.
import { DATA, type Presented } from "../normalize";
import type { Invocation, Runner } from "../runner";
import { resolvePath } from "../../paths";
import type { Code } from "../code";
import { shapedArg, known, type Arg } from "../words";

/** Container CLIs: their mounts and env files are read (table.ts), their exec/run wrap (wrappers.ts). */
export const CONTAINER_CLIS: ReadonlySet<string> = new Set(["docker", "podman", "nerdctl", "finch"]);

/** How an argument is shown in normalized text. */
export function shown(a: Arg): string {
  return a.value ?? a.text;
}

/** Shows every argument, except those in `data` (replaced by DATA). */
export function present(head: string[], args: readonly Arg[], data: ReadonlySet<Arg> = new Set(), extra?: Presented["extra"]): Presented {
  const p: Presented = { head, args: args.map((a) => (data.has(a) ? DATA : shown(a))) };
  if (extra) p.extra = extra;
  return p;
}

/** Every argument that is not an option is read or named: what naming a zero-access path needs. */
export function mentionAll(inv: Invocation, r: Runner, args: readonly Arg[], skip: ReadonlySet<Arg> = new Set()): void {
  for (const a of args) {
    if (skip.has(a)) continue;
    mention(inv, r, a);
  }
}

/** HTTP clients whose request items name files to send (httpie's `http`/`https`, xh). */
const HTTPIE = new Set(["http", "https", "xh", "xhs"]);

/**
 * A word that may name a file: the word itself, or the value of `--opt=value`, or `@file`
 * (curl's "read this file"). Only reads: what an unknown program does with it is unknown.
 */
export function mention(inv: Invocation, r: Runner, a: Arg): void {
  if (a.under) return r.path(inv, a, "read", true, inv.name);
  if (!known(a)) return;
  let v = a.value;
  if (v.startsWith("-")) {
    const eq = v.indexOf("=");
    if (eq < 0) return;
    v = v.slice(eq + 1);
  } else if (HTTPIE.has(inv.name) && /^[A-Za-z0-9_-]+(:=@|=@|@)/.test(v)) {
    // httpie / xh request items: `field@FILE` uploads FILE, `field=@FILE` / `field:=@FILE` embed it.
    v = v.slice(v.indexOf("@"));
  } else if (/^[A-Za-z_][A-Za-z0-9_.:[\]-]*=/.test(v)) {
    // `NAME=VALUE`; a form field's name may hold `:` or `[]` (curl -F 'f:1=@FILE', 'files[]=@FILE').
    v = v.slice(v.indexOf("=") + 1);
  }
  if (v.startsWith("@")) v = v.slice(1);
  if (v === "" || /\s/.test(v) || v.length > 4096) return;
  r.path(inv, v === a.value ? a : shapedArg({ ...a, value: v }), "read", false, inv.name);
}

/** The Arg for a part of another arg's value (the `X` of `of=X`). */
export function subArg(a: Arg, value: string): Arg {
  const start = Math.max(a.span.start, a.span.end - value.length);
  return shapedArg({ value, text: value, span: { start, end: a.span.end }, code: { text: value, base: start }, glob: a.glob ? true : undefined });
}

/**
 * The text written to file `f` earlier in the command line (`cat > drop.sql <<EOF`, `printf … >
 * hook.sh`), if any: a client, a shell or git's hooks that run the file run that text (issue 36).
 */
export function writtenText(inv: Pick<Invocation, "scope">, f: Arg | string): Code | undefined {
  const value = typeof f === "string" ? f : known(f) ? f.value : undefined;
  if (value === undefined || inv.scope.cwd === undefined) return undefined;
  const abs = resolvePath(value, { cwd: inv.scope.cwd, home: inv.scope.home });
  const sym = abs === undefined ? undefined : inv.scope.get(`written ${abs}`);
  return sym?.kind === "literal" ? sym.code : undefined;
}
