// Turns an argument into the path effects the decider checks: resolved against the scope's cwd
// (after `cd`), `~`/`$HOME`, `..`. A glob is reported as the literal pattern (path rules match a
// `*.pem` or `specs/*` pattern like a name) and, when it takes everything in a folder (`*`,
// `dir/*`), as a recursive effect on that folder. A target only known at run time is an
// Uncertainty when the access modifies something; reads of unknown paths are not (documented:
// `cat "$f"` in a loop is everyday work, and the files it may read are not known to be protected).
import { posix } from "node:path";
import { resolvePath } from "../paths";
import type { Access } from "../types";
import type { Runner } from "./runner";
import type { Scope } from "./scope";
import type { Narrow } from "./types";
import { known, shapedArg, type Arg } from "./words";

const NOT_FILES = /^\/dev\/(null|zero|u?random|stdin|stdout|stderr|tty|fd\/\d+)$/;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const GLOB = /[*?[\]{}]/;
/** A segment that takes every entry of its folder. */
const TAKES_ALL = /^[*?]+$|^\*\*?$/;
/** Stands in for a directory left unknown by `cd "$X"`: name rules (`.env`) still match below it. */
const UNKNOWN_DIR = "/\u2047unknown-directory";

export function pathEffect(r: Runner, scope: Scope, arg: Arg, access: Access, recursive: boolean, via: string, narrow?: Narrow): void {
  if (arg.pipe) return;
  if (arg.under) {
    // find's wildcards also match a leading dot (`-name '*env'` reaches `.env`), the shell's do
    // not: the dotted spelling is judged too.
    const names = arg.named === undefined ? [] : /^[*?]/.test(arg.named) ? [arg.named, arg.named[0] === "*" ? `.${arg.named}` : `.${arg.named.slice(1)}`] : [arg.named];
    // The walk reaches every folder below, but only the entries of that name (and what is below
    // them): a recursive effect narrowed to those names (kinds.ts).
    const only = names.length ? { only: names, ...(narrow?.reformat && { reformat: true }) } : narrow;
    for (const dir of arg.under) r.sink.effect(dir, access, true, arg.span, via, only);
    // Only paths whose name matches `named` (find -name): that name below each folder is touched,
    // so a name rule (`*.pem`, `.env`) judges it as it judges the glob `DIR/*.pem`.
    for (const dir of arg.under) for (const name of names) r.sink.effect(`${dir === "/" ? "" : dir}/${name}`, access, false, arg.span, `${via}, of the files named ${arg.named}`);
    return;
  }
  if (!known(arg)) {
    // A possible value that static evaluation finds (`${F:-.env}`) is judged as that path.
    for (const m of arg.maybe ?? []) pathEffect(r, scope, shapedArg({ ...arg, value: m, text: m, maybe: undefined, unknown: undefined }), access, recursive, via, narrow);
    if (access === "write" || access === "delete") {
      r.uncertain(`${via} ${access === "delete" ? "deletes" : "writes"} \`${arg.text}\`, which is only known when the command runs`, arg.span, access, via);
    } else if (access === "read" && !arg.pipe) {
      // Content read from a file only named at run time could be a secret's.
      r.uncertain(`${via} reads \`${arg.text}\`, which is only known when the command runs`, arg.span, "read", via);
    }
    return;
  }
  const value = arg.value;
  if (value === "" || value === "-" || NOT_FILES.test(value) || URL.test(value)) return;
  let cwd = scope.cwd;
  if (cwd === undefined && !value.startsWith("/") && !value.startsWith("~")) {
    if (access === "write" || access === "delete") {
      r.uncertain(`${via} ${access === "delete" ? "deletes" : "writes"} \`${value}\` relative to a directory only known when the command runs`, arg.span, access, via);
      return;
    }
    cwd = UNKNOWN_DIR;
  }
  const abs = resolvePath(value, { cwd: cwd!, home: scope.home });
  if (abs === undefined) return;
  // Through a link created earlier in this line (`ln -s /etc /tmp/e && rm -rf /tmp/e/`): the target too.
  const through = linkedTarget(scope, abs);
  if (through !== undefined) r.sink.effect(through, access, recursive, arg.span, `${via}, through a link to ${through}`, narrow);
  if (!arg.glob || !GLOB.test(value)) {
    r.sink.effect(abs, access, recursive, arg.span, via, narrow);
    return;
  }
  r.sink.effect(abs.replace(/\/+$/, "") || "/", access, recursive, arg.span, via, narrow);
  const parts = abs.split("/");
  const first = parts.findIndex((p) => GLOB.test(p));
  const rest = parts.slice(first).filter((p) => p !== "");
  if (rest.every((p) => TAKES_ALL.test(p))) {
    const base = parts.slice(0, first).join("/") || "/";
    r.sink.effect(posix.normalize(base), access, true, arg.span, via, narrow);
  }
}

/** The path `abs` reaches through a symbolic link made earlier in the line, if one of its folders is such a link. */
function linkedTarget(scope: Scope, abs: string): string | undefined {
  for (let p = abs.replace(/\/+$/, ""); p.length > 1; p = p.slice(0, p.lastIndexOf("/")) || "/") {
    const sym = scope.get(`symlink ${p}`);
    if (sym.kind === "literal") return sym.value + abs.replace(/\/+$/, "").slice(p.length);
    if (p === "/") break;
  }
  return undefined;
}
