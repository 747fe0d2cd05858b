// Coreutils-style programs and what they do to paths: deletes (rm, rmdir, unlink, shred), writes
// (tee, touch, mkdir, truncate, dd of=, cp/mv/ln/install onto a path, sed -i, yq -i, chmod…),
// reads (viewers, grep, cp/tar/rsync/scp sources, base64…), listings (ls, tree, du, find), and
// the programs whose arguments are only data (echo, printf, which, man…), shown as DATA.
import { resolvePath } from "../../paths";
import { isSystemRoot } from "../../remote/system";
import { CodeBuilder } from "../code";
import { DATA } from "../normalize";
import { has, parseOptions, valuesOf, type OptionSpec, type ParsedArgs } from "../options";
import type { Handler, Invocation, Runner, RunResult } from "../runner";
import type { Stdin } from "../stdin";
import { known, shapedArg, type Arg } from "../words";
import { mentionAll, present, shown, subArg } from "./common";
import { decodedCode, pureOutput } from "../words";

const isOption = (a: Arg) => a.value !== undefined && a.value.startsWith("-") && a.value !== "-";
const passUnder = (stdin: Stdin): Stdin => (stdin.kind === "under" ? stdin : { kind: "unknown", from: "the output of a command" });

// ---- deletes --------------------------------------------------------------------------------

const rm: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { longWithValue: [] });
  const recursive = has(p, "r", "R", "recursive");
  r.emit(inv, present(["rm"], inv.args));
  for (const a of p.operands) r.path(inv, a, "delete", recursive, recursive ? "rm -r" : "rm");
};

const deletes =
  (via: string, spec: OptionSpec = {}): Handler =>
  (inv, r) => {
    const p = parseOptions(inv.args, spec);
    r.emit(inv, present([inv.name], inv.args));
    for (const a of p.operands) r.path(inv, a, "delete", false, via);
  };

const shred: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "nsc", longWithValue: ["iterations", "size", "random-source"] });
  r.emit(inv, present(["shred"], inv.args));
  const remove = has(p, "u", "remove");
  for (const a of p.operands) r.path(inv, a, remove ? "delete" : "write", false, "shred");
};

// ---- moves and copies -----------------------------------------------------------------------

const COPY_SPEC: OptionSpec = { shortWithValue: "tSm", longWithValue: ["target-directory", "suffix", "mode", "owner", "group"] };

/** Sources and destination of cp/mv/ln/install: `-t DIR src…`, else the last operand. */
function sourcesAndTarget(p: ParsedArgs): { sources: Arg[]; target?: Arg } {
  const t = valuesOf(p, "t", "target-directory")[0];
  if (t) return { sources: p.operands, target: t };
  if (p.operands.length < 2) return { sources: p.operands };
  return { sources: p.operands.slice(0, -1), target: p.operands[p.operands.length - 1] };
}

const mv: Handler = (inv, r) => {
  const p = parseOptions(inv.args, COPY_SPEC);
  r.emit(inv, present(["mv"], inv.args));
  const { sources, target } = sourcesAndTarget(p);
  // Moving a folder takes everything below it away from where it was.
  for (const s of sources) r.path(inv, s, "delete", true, "mv");
  if (target) r.path(inv, target, "write", false, "mv onto");
};

/** `install -m 777 …`, `mkdir -m a+rwx …`: the mode they set is also shown as the chmod it is. */
function modeAsChmod(inv: Invocation, r: Runner, p: ParsedArgs, targets: readonly (Arg | undefined)[]): void {
  const mode = valuesOf(p, "m", "mode")[0];
  if (!mode || !known(mode)) return;
  r.emitText(["chmod", normalizeMode(mode.value) ?? mode.value, ...targets.filter((t): t is Arg => !!t).map(shown)].join(" "), inv.span);
}

const cp: Handler = (inv, r) => {
  const p = parseOptions(inv.args, COPY_SPEC);
  const recursive = has(p, "r", "R", "a", "recursive", "archive");
  r.emit(inv, present([inv.name], inv.args));
  if (inv.name === "install" && has(p, "d", "directory")) {
    modeAsChmod(inv, r, p, p.operands);
    for (const a of p.operands) r.path(inv, a, "write", false, "install -d");
    return;
  }
  const { sources, target } = sourcesAndTarget(p);
  if (inv.name === "install") modeAsChmod(inv, r, p, [target]);
  for (const s of sources) r.path(inv, s, "read", recursive, inv.name);
  if (target) r.path(inv, target, "write", recursive, `${inv.name} onto`);
};

const ln: Handler = (inv, r) => {
  const p = parseOptions(inv.args, COPY_SPEC);
  r.emit(inv, present(["ln"], inv.args));
  const { sources, target } = sourcesAndTarget(p);
  mentionAll(inv, r, sources);
  if (target) r.path(inv, target, "write", false, "ln");
  // A link made in this line (issue 36): a later delete through it deletes what it points at.
  if (target && sources.length === 1 && known(target) && known(sources[0]) && inv.scope.cwd !== undefined) {
    const at = resolvePath(target.value, { cwd: inv.scope.cwd, home: inv.scope.home });
    const to = resolvePath(sources[0].value, { cwd: inv.scope.cwd, home: inv.scope.home });
    if (at !== undefined && to !== undefined) inv.scope.set(`symlink ${at.replace(/\/+$/, "")}`, { kind: "literal", value: to });
  }
  if (target) {
    // (the link's own path is written above)
  } else if (sources[0] && known(sources[0])) r.path(inv, subArg(sources[0], sources[0].value.replace(/\/+$/, "").split("/").pop() ?? ""), "write", false, "ln");
};

// ---- writes ---------------------------------------------------------------------------------

const writes =
  (via: string, spec: OptionSpec = {}, firstIsData = 0): Handler =>
  (inv, r) => {
    const p = parseOptions(inv.args, spec);
    const recursive = has(p, "R", "recursive");
    r.emit(inv, present([inv.name], inv.args));
    if (inv.name === "mkdir" || inv.name === "mkfifo") modeAsChmod(inv, r, p, p.operands);
    for (const a of p.operands.slice(firstIsData)) r.path(inv, a, "write", recursive, via);
    for (const v of valuesOf(p, "r", "reference")) r.path(inv, v, "read", false, via);
  };

const tee: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { longWithValue: ["output-error"] });
  r.emit(inv, present(["tee"], inv.args));
  for (const a of p.operands) r.path(inv, a, "write", false, "tee");
  return { stdout: inv.stdin };
};

const dd: Handler = (inv, r) => {
  r.emit(inv, present(["dd"], inv.args));
  for (const a of inv.args) {
    const m = known(a) ? /^(if|of)=(.*)$/.exec(a.value) : null;
    if (m) r.path(inv, subArg(a, m[2]), m[1] === "of" ? "write" : "read", false, `dd ${m[1]}=`);
  }
};

/** chmod 0777 → 777, a=rwx / ugo+rwx → 777: spellings of the mode the patterns know. */
export function normalizeMode(mode: string): string | undefined {
  if (/^0+[0-7]{3,4}$/.test(mode)) return mode.replace(/^0+(?=[0-7]{3})/, "");
  const full = /^(a|ugo|[ugo]{3})?[+=]rwx[XstT]*$/.test(mode) || mode.split(",").every((c) => /^[ugo][+=]rwx$/.test(c)) && new Set(mode.split(",").map((c) => c[0])).size === 3;
  return full ? "777" : undefined;
}

const chmod: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { longWithValue: ["reference"] });
  const recursive = has(p, "R", "recursive");
  const [mode, ...files] = valuesOf(p, "reference").length ? [undefined, ...p.operands] : p.operands;
  const norm = mode && known(mode) ? normalizeMode(mode.value) : undefined;
  const extra = norm ? [inv.args.map((a) => (a === mode ? norm : shown(a)))] : undefined;
  r.emit(inv, present(["chmod"], inv.args, undefined, extra));
  // Permissions are metadata, not content: chmod is judged by the patterns (chmod 777), and
  // only names its files for the path rules (the corpus allows `find . -exec chmod 644 {} ;`).
  for (const f of files) if (f) r.path(inv, f, "read", recursive, "chmod");
  if (recursive) systemRoots(inv, r, files);
};

/** `chmod -R`/`chown -R` of a system root (issue 36): every program below it may stop working. */
function systemRoots(inv: Invocation, r: Runner, files: readonly (Arg | undefined)[]): void {
  for (const f of files) {
    const abs = f && known(f) ? resolvePath(f.value, { cwd: inv.scope.cwd ?? "/", home: inv.scope.home }) : undefined;
    if (abs !== undefined && isSystemRoot(abs)) r.sink.remoteEffect({ effect: "destroy", target: "system", program: inv.name, resource: abs, span: inv.span, via: `${inv.name} -R of a system root` });
  }
}

const chown: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { longWithValue: ["reference", "from"] });
  const recursive = has(p, "R", "recursive");
  r.emit(inv, present([inv.name], inv.args));
  const files = p.operands.slice(valuesOf(p, "reference").length ? 0 : 1);
  for (const f of files) r.path(inv, f, "read", recursive, inv.name);
  if (recursive) systemRoots(inv, r, files);
};

/** sed: the script is data; `-i`/`--in-place` writes the files; `w FILE` in a script writes too. */
const sed: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "efl", shortOptionalValue: "i", longWithValue: ["expression", "file", "line-length"], longOptionalValue: ["in-place"] });
  const scripts = valuesOf(p, "e", "expression");
  const scriptFiles = valuesOf(p, "f", "file");
  const operands = [...p.operands];
  if (scripts.length === 0 && scriptFiles.length === 0 && operands.length) scripts.push(operands.shift()!);
  const inPlace = p.options.some((o) => o.name === "i" || o.name === "in-place");
  r.emit(inv, present(["sed"], inv.args, new Set(scripts)));
  for (const f of scriptFiles) r.path(inv, f, "read", false, "sed -f");
  for (const f of operands) r.path(inv, f, inPlace ? "write" : "read", false, inPlace ? "sed -i" : "sed");
  for (const s of scripts) for (const w of sedWriteTargets(s)) r.path(inv, w, "write", false, "sed w");
  for (const s of scripts) sedExecutes(inv, r, s);
  return { stdout: passUnder(inv.stdin) };
};

/** An address before a sed command: `1`, `$`, `/re/`, a range of them, negated with `!`. */
const SED_ADDRESS = String.raw`(?:(?:\d+|\$|\/(?:\\.|[^/])*\/)(?:\s*,\s*(?:\d+|\$|\/(?:\\.|[^/])*\/))?\s*!?\s*)?`;
/** GNU sed's `e COMMAND` (to the end of the line), or a bare `e` that runs the pattern space. */
const SED_E_COMMAND = new RegExp(String.raw`(?:^|[;\n{}])\s*${SED_ADDRESS}e(?:[ \t]+([^\n]*))?(?=$|[\n;}])`, "g");
/** `s/RE/REPLACEMENT/FLAGS` with the `e` flag: the pattern space after the substitution is run. */
const SED_E_FLAG = /s(.)((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1[gpiImM0-9]*e[gpiImMe0-9]*/g;

/**
 * GNU sed runs commands (issue 36, family 6): `e COMMAND` runs COMMAND, `s/…/CMD/e` runs the
 * substituted line. Each is judged as the command it is; a command made of the input (a bare `e`,
 * a replacement with `&` or `\1`, a match of less than the whole line) is only known when it runs.
 */
function sedExecutes(inv: Invocation, r: Runner, script: Arg): void {
  if (!known(script)) return;
  for (const m of script.value.matchAll(SED_E_COMMAND)) {
    if (m[1] === undefined || m[1].trim() === "") r.uncertain("sed's `e` runs each input line as a command, which is only known when it runs", script.span);
    else r.runCode(subArg(script, m[1]).code!, inv.scope.child(), { kind: "none" }, inv.depth + 1, "sed e");
  }
  for (const m of script.value.matchAll(SED_E_FLAG)) {
    // Only a match of the whole line (`.*`) leaves nothing of the input in the command.
    if (/\\[0-9]|&/.test(m[3]) || !/^\^?\.\*\$?$/.test(m[2])) r.uncertain("sed's `s///e` runs the substituted line as a command, which is only known when it runs", script.span);
    else if (m[3].trim() !== "") r.runCode(subArg(script, m[3]).code!, inv.scope.child(), { kind: "none" }, inv.depth + 1, "sed s///e");
  }
}

function sedWriteTargets(script: Arg): Arg[] {
  if (!known(script)) return [];
  const out: Arg[] = [];
  const re = /(?:^|[;\n}])\s*w\s+([^\s;}]+)|s(.)(?:\\.|(?!\2).)*\2(?:\\.|(?!\2).)*\2[gpiImMe0-9]*w\s+(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(script.value))) out.push(subArg(script, m[1] ?? m[3]));
  return out;
}

/** yq/jq: the first operand is an expression (data); yq -i edits the files in place. */
const yq: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "oIpf", longWithValue: ["output-format", "input-format", "indent", "from-file", "arg", "argjson", "slurpfile", "rawfile"] });
  const fromFile = valuesOf(p, "f", "from-file");
  const [expr, ...files] = fromFile.length ? [undefined, ...p.operands] : p.operands;
  const inPlace = inv.name === "yq" && has(p, "i", "inplace");
  r.emit(inv, present([inv.name], inv.args, new Set(expr ? [expr] : [])));
  for (const f of fromFile) r.path(inv, f, "read", false, inv.name);
  for (const f of files) if (f) r.path(inv, f, inPlace ? "write" : "read", false, inPlace ? `${inv.name} -i` : inv.name);
};

const truncate = writes("truncate", { shortWithValue: "sr", longWithValue: ["size", "reference"] });

// ---- archives and transfers -----------------------------------------------------------------

const tar: Handler = (inv, r) => {
  const args = [...inv.args];
  // Old style: `tar czf out.tgz dir` = `tar -czf …`.
  if (args[0] && known(args[0]) && !args[0].value.startsWith("-") && /^[A-Za-z]+$/.test(args[0].value)) args[0] = shapedArg({ ...args[0], value: "-" + args[0].value });
  const p = parseOptions(args, { shortWithValue: "fCTXbHKNgL", longWithValue: ["file", "directory", "files-from", "exclude-from", "exclude", "use-compress-program", "transform", "owner", "group", "mode"] });
  const archive = valuesOf(p, "f", "file")[0];
  const dir = valuesOf(p, "C", "directory")[0];
  const create = has(p, "c", "create", "r", "append", "u", "update");
  const extract = has(p, "x", "extract", "get");
  r.emit(inv, present(["tar"], inv.args));
  if (archive) r.path(inv, archive, create ? "write" : "read", false, "tar -f");
  for (const f of valuesOf(p, "T", "files-from", "X", "exclude-from")) r.path(inv, f, "read", false, "tar");
  const scope = dir && known(dir) && inv.scope.cwd !== undefined ? inv.scope.fork() : inv.scope;
  if (scope !== inv.scope) scope.cwd = resolvePath(dir!.value!, { cwd: inv.scope.cwd!, home: scope.home });
  if (create) for (const f of p.operands) r.path({ scope }, f, "read", true, "tar -c");
  else if (extract) {
    if (dir) r.path(inv, dir, "write", false, "tar -x");
    for (const f of p.operands) r.path({ scope }, f, "write", true, "tar -x");
  } else mentionAll(inv, r, p.operands);
};

const isRemote = (a: Arg) => known(a) && /^[^/]*:/.test(a.value) && !/^[A-Za-z]:[\\/]/.test(a.value);

const rsync: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "eTfB", longWithValue: ["exclude", "include", "filter", "rsh", "rsync-path", "files-from", "exclude-from", "include-from", "backup-dir", "temp-dir", "partial-dir", "log-file", "password-file", "chmod", "chown", "compare-dest", "copy-dest", "link-dest", "port"] });
  r.emit(inv, present(["rsync"], inv.args));
  const local = p.operands;
  const target = local.length > 1 ? local[local.length - 1] : undefined;
  const sources = target ? local.slice(0, -1) : local;
  for (const s of sources) if (!isRemote(s)) r.path(inv, s, "read", true, "rsync");
  for (const f of valuesOf(p, "files-from", "exclude-from", "include-from", "password-file")) r.path(inv, f, "read", false, "rsync");
  if (target && !isRemote(target)) {
    r.path(inv, target, "write", true, "rsync onto");
    if (p.options.some((o) => o.name.startsWith("delete") || o.name === "remove-source-files")) r.path(inv, target, "delete", true, "rsync --delete");
  }
  if (has(p, "remove-source-files")) for (const s of sources) if (!isRemote(s)) r.path(inv, s, "delete", true, "rsync --remove-source-files");
};

const scp: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "iPoFclSJD" });
  r.emit(inv, present(["scp"], inv.args));
  // `-i KEY` authenticates with the key, which scp never shows (credentials.ts): used, not read.
  for (const k of valuesOf(p, "F")) r.path(inv, k, "read", false, "scp");
  const recursive = has(p, "r");
  const target = p.operands.length > 1 ? p.operands[p.operands.length - 1] : undefined;
  const sources = target ? p.operands.slice(0, -1) : p.operands;
  for (const s of sources) if (!isRemote(s)) r.path(inv, s, "read", recursive, "scp");
  if (target && !isRemote(target)) r.path(inv, target, "write", recursive, "scp onto");
  // Onto another machine: the path written there is judged as a path of a machine laid out like
  // this one (as `ssh HOST CMD`'s are; relative to the remote home): `host:/etc/passwd` is a system file.
  else if (target?.value !== undefined && isRemote(target)) {
    const remotePath = target.value.slice(target.value.indexOf(":") + 1) || ".";
    const home = inv.scope.home;
    const abs = remotePath.startsWith("/") ? remotePath : remotePath.startsWith("~") ? home + remotePath.slice(1) : `${home}/${remotePath}`;
    r.sink.effect(abs.replace(/\/\.?$/, "") || "/", "write", recursive, target.span, "scp onto another machine");
  }
};

// ---- reads ----------------------------------------------------------------------------------

/**
 * Viewers and filters: their operands are files they read and show. In normalized text the
 * operands are DATA: `head git clean -f` reads files named git and clean, it runs nothing.
 */
const reads =
  (spec: OptionSpec = {}, opts: { recursiveFlags?: string[]; list?: boolean; alwaysRecursive?: boolean; filter?: boolean } = {}): Handler =>
  (inv, r): RunResult => {
    const p = parseOptions(inv.args, spec);
    const recursive = opts.alwaysRecursive || (opts.recursiveFlags ?? []).some((f) => has(p, f));
    r.emit(inv, present([inv.name], inv.args, new Set(p.operands)));
    for (const a of p.operands) r.path(inv, a, opts.list ? "list" : "read", recursive, inv.name);
    for (const o of p.options) if (o.value && /^(o|output)$/.test(o.name) && inv.name === "sort") r.path(inv, o.value, "write", false, "sort -o");
    if (opts.list) {
      if (p.operands.length === 0 && inv.scope.cwd !== undefined) r.sink.effect(inv.scope.cwd, "list", recursive, inv.span, inv.name);
      const dirs = p.operands.filter(known).map((a) => listBase(a, inv));
      return { stdout: dirs.length || p.operands.length === 0 ? { kind: "under", dirs: p.operands.length ? dirs.filter((d): d is string => !!d) : inv.scope.cwd ? [inv.scope.cwd] : [] } : { kind: "unknown", from: "a listing" } };
    }
    if (p.operands.length === 0 && inv.stdin.kind === "text" && inv.name === "cat") return { stdout: inv.stdin };
    return { stdout: opts.filter && p.operands.length === 0 ? passUnder(inv.stdin) : { kind: "unknown", from: `the output of ${inv.name}` } };
  };

/** What `ls specs/*` prints is below `specs`. */
function listBase(a: Arg, inv: Invocation): string | undefined {
  if (!known(a) || inv.scope.cwd === undefined) return undefined;
  let v = a.value;
  if (a.glob) {
    const parts = v.split("/");
    const i = parts.findIndex((x) => /[*?[\]{}]/.test(x));
    v = parts.slice(0, i).join("/") || (v.startsWith("/") ? "/" : ".");
  }
  return resolvePath(v, { cwd: inv.scope.cwd, home: inv.scope.home });
}

/** grep family: the pattern is data; the files are read (recursively with -r, always for rg/ag). */
const grep: Handler = (inv, r): RunResult => {
  const rgLike = ["rg", "ag", "ack", "ack-grep"].includes(inv.name);
  const p = parseOptions(inv.args, {
    shortWithValue: rgLike ? "efmABCgtTjMEr" : "efmABCdD",
    longWithValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "include", "exclude", "exclude-dir", "glob", "type", "type-not", "type-add", "threads", "max-columns", "replace", "encoding", "label", "devices", "directories", "binary-files"],
  });
  const patterns = valuesOf(p, "e", "regexp");
  const operands = [...p.operands];
  const files = rgLike && has(p, "files");
  if (patterns.length === 0 && valuesOf(p, "f", "file").length === 0 && !files && operands.length) patterns.push(operands.shift()!);
  const recursive = rgLike || has(p, "r", "R", "recursive", "dereference-recursive") || valuesOf(p, "d", "directories").some((v) => v.value === "recurse");
  r.emit(inv, present([inv.name], inv.args, new Set([...patterns, ...operands])));
  for (const f of valuesOf(p, "f", "file")) r.path(inv, f, "read", false, inv.name);
  for (const a of operands) r.path(inv, a, "read", recursive, inv.name);
  // `--include=.env`, `rg -g '*.pem'`: the names searched are named.
  if (recursive) for (const g of valuesOf(p, "include", ...(rgLike ? ["g", "glob", "iglob"] : []))) if (known(g) && !g.value.startsWith("!")) r.path(inv, g, "read", false, inv.name);
  if (operands.length === 0 && recursive && inv.scope.cwd !== undefined) r.sink.effect(inv.scope.cwd, "read", true, inv.span, inv.name);
  if (files || has(p, "l", "files-with-matches")) {
    const dirs = operands.filter(known).map((a) => listBase(a, inv)).filter((d): d is string => !!d);
    return { stdout: { kind: "under", dirs: dirs.length ? dirs : inv.scope.cwd ? [inv.scope.cwd] : [] } };
  }
  return { stdout: operands.length === 0 ? passUnder(inv.stdin) : { kind: "unknown", from: `the output of ${inv.name}` } };
};

/** `patch [FILE [PATCHFILE]]`, `-o OUT`, `-i PATCHFILE`: FILE (or OUT) is rewritten. */
const patch: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "pFiodBrDVYzgx", longWithValue: ["strip", "fuzz", "input", "output", "directory", "prefix", "reject-file", "ifdef", "backup-if-mismatch", "suffix", "basename-prefix", "version-control", "get", "debug", "quoting-style"] });
  r.emit(inv, present([inv.name], inv.args));
  for (const f of valuesOf(p, "i", "input")) r.path(inv, f, "read", false, "patch -i");
  const out = valuesOf(p, "o", "output");
  for (const f of out) r.path(inv, f, "write", false, "patch -o");
  if (p.operands[0]) r.path(inv, p.operands[0], out.length ? "read" : "write", false, "patch");
  if (p.operands[1]) r.path(inv, p.operands[1], "read", false, "patch");
  const dir = valuesOf(p, "d", "directory")[0];
  if (dir) r.path(inv, dir, "write", false, "patch -d");
};

/** `unzip ARCHIVE [members] -d DIR`: extracts into DIR (or the current folder). */
const unzip: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "dxP" });
  r.emit(inv, present([inv.name], inv.args));
  if (p.operands[0]) r.path(inv, p.operands[0], "read", false, inv.name);
  const dir = valuesOf(p, "d")[0];
  if (dir && !has(p, "l", "t", "v", "p", "c", "z", "Z")) r.path(inv, dir, "write", false, `${inv.name} -d`);
};

// ---- data only ------------------------------------------------------------------------------

/** echo/printf: every operand is text; what they print is known (for `… | bash`, `… | xargs`). */
const echo: Handler = (inv, r): RunResult => {
  let i = 0;
  if (inv.name === "echo") while (i < inv.args.length && /^-[neE]+$/.test(inv.args[i].value ?? "")) i++;
  const words = inv.args.slice(i);
  r.emit(inv, { head: [inv.name], args: [...inv.args.slice(0, i).map(shown), ...words.map(() => DATA)], fixedOrder: true });
  if (inv.name === "printf") {
    // Format then arguments: printed text is approximated by the arguments, or the format alone.
    const fmt = words[0];
    const rest = words.slice(1);
    if (!fmt) return { stdout: { kind: "text", code: { text: "", base: inv.span.start } } };
    // All words known: printf's exact output (escapes such as \x72 applied).
    const exact = words.every(known) ? pureOutput("printf", words.map((a) => a.value!), "") : undefined;
    if (exact !== undefined && exact !== words.map((a) => a.value).join("\n")) return { stdout: { kind: "text", code: decodedCode(exact, inv.span) } };
    return { stdout: { kind: "text", code: joinLines(rest.length ? rest : [fmt], inv.name === "printf" && rest.length === 0) } };
  }
  const b = new CodeBuilder();
  words.forEach((a, j) => {
    if (j > 0) b.push(" ", () => a.span.start);
    if (a.code) b.pushCode(a.code);
  });
  b.push("\n", () => inv.span.end);
  return { stdout: { kind: "text", code: b.build(inv.span.start) } };
};

function joinLines(args: readonly Arg[], unescape: boolean): import("../code").Code {
  const b = new CodeBuilder();
  args.forEach((a, j) => {
    if (j > 0) b.push("\n", () => a.span.start);
    if (!a.code) return;
    if (unescape) b.push(a.code.text.replace(/\\n/g, "\n  ").replace(/\\t/g, "\t "), (k) => a.span.start + k);
    else b.pushCode(a.code);
  });
  return b.build(args[0]?.span.start ?? 0);
}

/**
 * test/[/stat: what they learn of a path is its metadata (exists, size, mode), not its content:
 * a listing, which zero-access paths that are files allow (a folder's listing is its content).
 */
const metadata: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => (isOption(a) ? shown(a) : DATA)), fixedOrder: true });
  for (const a of inv.args) if (!isOption(a) && known(a) && !/^(!|=|==|!=|-[a-z]{1,2}|\]|\(|\))$/.test(a.value)) r.path(inv, a, "list", false, inv.name);
};

/** `alias name='text'`: later commands named `name` run `text` (the walker expands them). */
const alias: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => (isOption(a) ? shown(a) : DATA)), fixedOrder: true });
  for (const a of inv.args) {
    const m = known(a) ? /^([^=\s/]+)=([\s\S]*)$/.exec(a.value) : null;
    if (m) inv.scope.set(`alias ${m[1]}`, { kind: "literal", value: m[2] });
  }
};

/** which/man/type…: the operands are names looked up, not run. */
const names: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => (isOption(a) ? shown(a) : DATA)), fixedOrder: true });
};

// ---- directory changes ----------------------------------------------------------------------

const cd: Handler = (inv, r) => {
  const operands = inv.args.filter((a) => !isOption(a) || a.value === "-");
  r.emit(inv, present([inv.name], inv.args));
  const dir = operands[0];
  const previous = inv.scope.cwd;
  // bash's cd keeps the folder it leaves in OLDPWD; `cd -` goes back there (issue 36: after
  // `cd "$(mktemp -d)" && … && cd -`, "$OLDPWD" is the temporary folder).
  const leave = (to: string | undefined) => {
    inv.scope.cwd = to;
    inv.scope.set("OLDPWD", previous !== undefined ? { kind: "literal", value: previous } : { kind: "unknown" });
  };
  if (inv.name === "popd") {
    leave(undefined);
    return;
  }
  if (!dir) {
    if (inv.name === "cd") leave(inv.scope.home);
    return;
  }
  if (known(dir) && dir.value === "-") {
    const back = inv.scope.get("OLDPWD");
    leave(back.kind === "literal" ? back.value : undefined);
    return;
  }
  // A relative name not starting with `.`/`..` is looked up in CDPATH's folders first (bash's
  // cd): `CDPATH=~ cd .ssh` enters ~/.ssh (issue 36, family 7).
  const viaCdpath = known(dir) && !dir.glob ? cdpathDir(inv, dir.value) : undefined;
  if (viaCdpath !== undefined) r.path(inv, shapedArg({ ...dir, value: viaCdpath, text: viaCdpath }), "list", false, `${inv.name} through CDPATH`);
  r.path(inv, dir, "list", false, inv.name);
  leave(viaCdpath ?? (known(dir) && inv.scope.cwd !== undefined && !dir.glob ? resolvePath(dir.value, { cwd: inv.scope.cwd, home: inv.scope.home }) : undefined));
};

/** The folder CDPATH's first entry makes of a relative `cd` operand (an empty entry is the current folder). */
function cdpathDir(inv: Invocation, dir: string): string | undefined {
  const cdpath = inv.scope.get("CDPATH");
  if (cdpath.kind !== "literal" || /^(\/|~|\.\.?(\/|$))/.test(dir)) return undefined;
  const first = cdpath.value.split(":")[0];
  if (first === "" || inv.scope.cwd === undefined) return undefined;
  return resolvePath(`${first.replace(/\/+$/, "")}/${dir}`, { cwd: inv.scope.cwd, home: inv.scope.home });
}

// ---- editors --------------------------------------------------------------------------------

const editor: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "cSuiUwWTs" });
  r.emit(inv, present([inv.name], inv.args));
  for (const a of p.operands) if (!(known(a) && a.value.startsWith("+"))) r.path(inv, a, "write", false, inv.name);
};

/**
 * base64 -d, xxd -r -p, rev on known stdin: what they print is computed, so a decoded payload
 * piped to a shell (`echo cm0g… | base64 -d | sh`) is judged as the command it decodes to.
 */
const decoder =
  (fallback: Handler): Handler =>
  (inv, r) => {
    const result = fallback(inv, r);
    if (inv.stdin.kind !== "text" || !inv.args.every(known)) return result;
    const out = pureOutput(inv.name, inv.args.map((a) => a.value!), inv.stdin.code.text);
    return out === undefined ? result : { stdout: { kind: "text", code: decodedCode(out, inv.span) } };
  };

export function fileHandlers(): Record<string, Handler> {
  const viewer = reads({ shortWithValue: "nckw", longWithValue: ["lines", "bytes", "pid", "sleep-interval", "wrap"] }, { filter: true });
  const h: Record<string, Handler> = {
    rm,
    rmdir: deletes("rmdir"),
    unlink: deletes("unlink"),
    shred,
    mv,
    cp,
    install: cp,
    ln,
    tee,
    dd,
    touch: writes("touch", { shortWithValue: "drt", longWithValue: ["date", "reference", "time"] }),
    mkdir: writes("mkdir", { shortWithValue: "mZ", longWithValue: ["mode", "context"] }),
    mkfifo: writes("mkfifo", { shortWithValue: "m" }),
    truncate,
    sponge: writes("sponge"),
    chmod,
    chown,
    chgrp: chown,
    sed,
    gsed: sed,
    yq,
    jq: yq,
    tar,
    bsdtar: tar,
    patch,
    unzip,
    rsync,
    scp,
    grep,
    egrep: grep,
    fgrep: grep,
    zgrep: grep,
    rg: grep,
    ag: grep,
    ack: grep,
    echo,
    printf: echo,
    cd,
    pushd: cd,
    popd: cd,
    ls: reads({ shortWithValue: "IwT", longWithValue: ["ignore", "hide", "width", "format", "sort", "time-style", "color"] }, { list: true, recursiveFlags: ["R", "recursive"] }),
    tree: reads({ shortWithValue: "LPIo" }, { list: true, alwaysRecursive: true }),
    du: reads({ shortWithValue: "dBt", longWithValue: ["max-depth", "exclude", "block-size", "threshold"] }, { list: true, alwaysRecursive: true }),
    diff: reads({ shortWithValue: "CUFIxXLS", longWithValue: ["label", "ignore-matching-lines", "exclude", "exclude-from", "starting-file", "to-file", "from-file"] }, { recursiveFlags: ["r", "recursive"] }),
    sort: reads({ shortWithValue: "kotSTz", longWithValue: ["key", "output", "field-separator", "buffer-size", "temporary-directory"] }, { filter: true }),
    cut: reads({ shortWithValue: "bcdf", longWithValue: ["bytes", "characters", "delimiter", "fields"] }, { filter: true }),
  };
  for (const n of ["cat", "tac", "less", "more", "head", "tail", "nl", "wc", "uniq", "base64", "base32", "basenc", "xxd", "od", "hexdump", "strings", "file", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "cmp", "comm", "paste", "join", "fold", "fmt", "column", "expand", "unexpand", "iconv", "bat", "batcat", "view", "zcat", "zless", "bzcat", "xzcat", "readlink", "realpath"]) h[n] = viewer;
  for (const n of ["base64", "xxd"]) h[n] = decoder(viewer);
  h.rev = decoder(viewer);
  for (const n of ["which", "whereis", "type", "man", "info", "whatis", "apropos", "help", "tldr", "hash", "unalias"]) h[n] = names;
  // Package and log queries: their operands are package or unit names (`apt-cache policy sudo`).
  for (const n of ["apt-cache", "dpkg", "dpkg-query", "journalctl", "snap", "flatpak"]) h[n] = names;
  for (const n of ["test", "[", "stat"]) h[n] = metadata;
  h.alias = alias;
  for (const n of ["vi", "vim", "nvim", "nano", "emacs", "pico", "ed", "ex", "code", "subl"]) h[n] = editor;
  return h;
}
