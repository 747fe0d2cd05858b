// Programs that run a command once per item: `xargs CMD` (items from stdin), `parallel CMD :::
// items`, `find … -exec CMD {} ;` / `-execdir` / `-ok` (items = the paths found). The wrapped
// command is analysed with its items as arguments: known words (`echo a | xargs rm`), "some path
// below DIR" (`find DIR | xargs rm`, find's `{}`), or unknown (`xargs -a list rm`) — an unknown
// target of a modifying command becomes an Uncertainty through the usual path handling.
import { programName } from "../normalize";
import { resolvePath } from "../../paths";
import { spanIn, sliceCode } from "../code";
import { MAX_FANOUT } from "../limits";
import { has, parseOptions, valuesOf } from "../options";
import type { Handler, Invocation, Runner } from "../runner";
import type { Stdin } from "../stdin";
import type { Sym } from "../scope";
import { shapedArg, known, syntheticArg, type Arg } from "../words";
import { present, shown } from "./common";
import { SECRET_FILE_NAMES } from "./credentials";

/** The items a command reads from its stdin, as arguments. */
function stdinItems(inv: Invocation, stdin: Stdin, nulSeparated: boolean, fromFile?: Arg): Arg[] {
  if (fromFile) return [shapedArg({ text: "{}", span: fromFile.span, unknown: true })];
  if (stdin.kind === "text") {
    const out: Arg[] = [];
    const re = nulSeparated ? /[^\0\n]+/g : /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(stdin.code.text)) && out.length < 256) {
      const code = sliceCode(stdin.code, m.index, m.index + m[0].length);
      out.push(syntheticArg(m[0], spanIn(stdin.code, m.index, m.index + m[0].length), code));
    }
    return out;
  }
  if (stdin.kind === "under") return [shapedArg({ text: "{}", span: inv.span, under: stdin.dirs, named: stdin.named })];
  return [shapedArg({ text: "{}", span: inv.span, unknown: true })];
}

/** The Sym a placeholder stands for, given the items. */
function itemsSym(items: Arg[]): Sym {
  if (items.length === 1 && items[0].under) return { kind: "under", dirs: items[0].under, named: items[0].named };
  if (items.length === 1 && known(items[0])) return { kind: "literal", value: items[0].value };
  return { kind: "unknown" };
}

/** Runs `argv` once with the placeholder bound to each item (bounded), or once with items appended. */
function runWithItems(inv: Invocation, r: Runner, argv: Arg[], items: Arg[], placeholder: string | undefined): void {
  if (argv.length === 0) return;
  const span = { start: argv[0].span.start, end: Math.max(argv[argv.length - 1].span.end, argv[0].span.end) };
  if (!placeholder) {
    r.run([...argv, ...items], inv.scope, { kind: "none" }, span, inv.depth + 1);
    return;
  }
  const each = items.length > 0 && items.length <= MAX_FANOUT ? items.map((i) => [i]) : [items];
  for (const group of each) {
    const sym = itemsSym(group);
    r.run(argv, inv.scope.withPlaceholder(placeholder, sym), { kind: "none" }, span, inv.depth + 1);
  }
}

const xargs: Handler = (inv, r) => {
  const p = parseOptions(inv.args, {
    shortWithValue: "aEdILlnPs",
    shortOptionalValue: "ie",
    longWithValue: ["arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
    stopAtOperand: true,
  });
  const own = inv.args.slice(0, p.restIndex);
  const cmd = inv.args.slice(p.restIndex);
  const argv = cmd.length ? cmd : [syntheticArg("echo", inv.span)];
  const replace = valuesOf(p, "I", "replace", "i")[0]?.value ?? (has(p, "i") ? "{}" : undefined);
  const nul = has(p, "0", "null") || valuesOf(p, "d", "delimiter").length > 0;
  const items = stdinItems(inv, inv.stdin, nul, valuesOf(p, "a", "arg-file")[0]);
  for (const f of valuesOf(p, "a", "arg-file")) r.path(inv, f, "read", false, "xargs -a");
  const at = r.sink.commands.length;
  runWithItems(inv, r, argv, items, replace);
  const inner = r.sink.commands[at]?.text ?? argv.map(shown).join(" ");
  r.emitText(["xargs", ...own.map(shown), inner].join(" "), inv.span, at);
};

const parallel: Handler = (inv, r) => {
  // parallel [options] command… ::: items…  (items from stdin without :::)
  const sep = inv.args.findIndex((a) => a.value === ":::" || a.value === "::::");
  const before = sep >= 0 ? inv.args.slice(0, sep) : inv.args;
  const p = parseOptions(before, { shortWithValue: "jSaIdEnN", longWithValue: ["jobs", "arg-file", "delimiter", "joblog", "results", "sshlogin", "colsep", "tagstring", "workdir"], stopAtOperand: true });
  const cmd = before.slice(p.restIndex);
  const items = sep >= 0 ? (inv.args[sep].value === "::::" ? [shapedArg({ text: "{}", span: inv.args[sep].span, unknown: true })] : inv.args.slice(sep + 1).filter((a) => a.value !== ":::")) : stdinItems(inv, inv.stdin, false);
  const at = r.sink.commands.length;
  if (cmd.length === 0) {
    // `parallel ::: "cmd1" "cmd2"`: the items are commands.
    for (const it of items) if (it.code) r.runCode(it.code, inv.scope.child(), { kind: "none" }, inv.depth + 1, "parallel");
  } else if (cmd.some((a) => a.value?.includes("{}"))) runWithItems(inv, r, cmd, items, "{}");
  else runWithItems(inv, r, cmd, items.slice(0, 1).length ? items : [], undefined);
  const inner = r.sink.commands[at]?.text ?? cmd.map(shown).join(" ");
  r.emitText(["parallel", ...before.slice(0, p.restIndex).map(shown), inner].join(" "), inv.span, at);
};

/** find: start paths, then an expression; -delete deletes, -exec runs, the rest lists. */
const find: Handler = (inv, r) => {
  const args = inv.args;
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(args[i].value ?? "")) i += args[i].value === "-D" ? 2 : 1;
  const starts: Arg[] = [];
  while (i < args.length && !(known(args[i]) && /^[-(!]|^\)$/.test(args[i].value!))) starts.push(args[i++]);
  const startDirs = starts.length ? starts : [syntheticArg(".", inv.span)];
  const dirs = startDirs.filter(known).map((a) => (inv.scope.cwd !== undefined ? resolvePath(a.value, { cwd: inv.scope.cwd, home: inv.scope.home }) : undefined)).filter((d): d is string => !!d);
  const named = nameTest(args.slice(i));
  const found: Sym = dirs.length === startDirs.length ? { kind: "under", dirs, ...(named !== undefined && { named }) } : { kind: "unknown" };
  const shownArgs: string[] = args.slice(0, i).map(shown);
  // A name test narrows what the walk lists (`find / -name 'libssl.so*'`): the decider compares it with the secrets' names.
  for (const s of startDirs) r.path(inv, s, "list", true, "find", named !== undefined ? { only: [named] } : undefined);
  // Searched for by a secret file's own name: what it finds is the secret (credentials.ts).
  if (named !== undefined && found.kind === "under" && SECRET_FILE_NAMES.has(named)) r.path(inv, shapedArg({ text: "{}", span: inv.span, under: found.dirs, named }), "read", true, `find -name ${named}`);
  const at = r.sink.commands.length;
  while (i < args.length) {
    const a = args[i];
    const v = a.value ?? "";
    if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
      const end = args.findIndex((x, j) => j > i && (x.value === ";" || x.value === "+"));
      const stop = end < 0 ? args.length : end;
      const cmd = args.slice(i + 1, stop);
      shownArgs.push(v, ...cmd.map(shown), ...(end >= 0 ? [args[end].value!] : []));
      // `-ok`/`-okdir` run the command only for the entries the user confirms, one by one, on
      // find's standard input (issue 36): with nothing fed to it in the line, each run is put to
      // the user with its path, as the guard's ask would, so the walk is neither the unconfirmed
      // recursive delete `-exec` is nor a touch of the paths it may reach. The command itself is
      // still judged as written (`-ok rm -rf {}` is an rm -rf one keystroke confirms). Fed
      // (`yes | find … -ok rm {} \;`), the answers are the agent's: it is -exec.
      const confirmed = (v === "-ok" || v === "-okdir") && inv.stdin.kind === "none";
      if (cmd.length) {
        const span = { start: cmd[0].span.start, end: cmd[cmd.length - 1].span.end };
        r.run(cmd, inv.scope.withPlaceholder("{}", confirmed ? { kind: "literal", value: "{}" } : found), { kind: "none" }, span, inv.depth + 1);
        // `-exec rm {}` over a walk is a recursive delete of the walked folders.
        if (!confirmed && /^(rm|unlink|shred)$/.test(programName(cmd[0].value ?? ""))) r.emitText(["rm", "-r", ...startDirs.map(shown)].join(" "), span);
      }
      i = stop + 1;
      continue;
    }
    shownArgs.push(shown(a));
    if (v === "-delete") {
      // With a -name test, only the entries of that name are deleted (a walk narrowed by name).
      if (found.kind === "under" && found.named !== undefined) r.path(inv, shapedArg({ text: "{}", span: a.span, under: found.dirs, named: found.named }), "delete", true, "find -delete");
      else for (const s of startDirs) r.path(inv, s, "delete", true, "find -delete");
      // Deleting what a walk of a folder finds is a recursive delete of that folder's content.
      r.emitText(["rm", "-r", ...startDirs.map(shown)].join(" "), inv.span);
    }
    if (/^-f(print0?|printf|ls)$/.test(v) && args[i + 1]) {
      r.path(inv, args[i + 1], "write", false, `find ${v}`);
      shownArgs.push(shown(args[++i]));
    }
    i++;
  }
  r.emitText(["find", ...shownArgs].join(" "), inv.span, at);
  return { stdout: found.kind === "under" ? { kind: "under", dirs: found.dirs, named: found.named } : { kind: "unknown", from: "find" }, text: ["find", ...shownArgs].join(" ") };
};

/** Operators that make find's tests other than one conjunction (then no single test holds for every item). */
const NOT_A_CONJUNCTION = new Set(["-o", "-or", "!", "-not", "(", ")", ","]);

/**
 * The name every path find reports matches, when its expression is a plain conjunction with a
 * `-name P` (or `-iname P`, as lower case) test: `find . -name '*.pem' -exec cat {} \;` only
 * reaches files named *.pem.
 */
function nameTest(expression: readonly Arg[]): string | undefined {
  let named: string | undefined;
  for (let i = 0; i < expression.length; i++) {
    const v = expression[i].value;
    // `! -path './.venv/*'`: one negated test is one more conjunct; it only narrows the walk
    // further (its own name is not the name every item has, so it is skipped, not read).
    if ((v === "!" || v === "-not") && negatedTest(expression, i + 1) !== undefined) {
      i = negatedTest(expression, i + 1)!;
      continue;
    }
    if (v === undefined || NOT_A_CONJUNCTION.has(v)) return undefined;
    if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
      while (i < expression.length && expression[i].value !== ";" && expression[i].value !== "+") i++;
      continue;
    }
    const value = expression[i + 1];
    if ((v === "-name" || v === "-iname") && named === undefined && value && known(value) && value.value !== "" && !value.value.includes("/")) {
      named = v === "-iname" ? value.value.toLowerCase() : value.value;
    }
  }
  return named;
}

/** find's tests that take no argument. */
const NO_ARGUMENT_TESTS = new Set(["-empty", "-executable", "-readable", "-writable", "-true", "-false", "-nouser", "-nogroup"]);

/** The index of the last word of the single test at `at` (after a `!`), or undefined if none is there. */
function negatedTest(expression: readonly Arg[], at: number): number | undefined {
  const t = expression[at]?.value;
  if (t === undefined || !/^-[a-z]/.test(t) || NOT_A_CONJUNCTION.has(t) || /^-(exec|execdir|ok|okdir|delete|print|fprint|prune|quit)/.test(t)) return undefined;
  if (NO_ARGUMENT_TESTS.has(t)) return at;
  return expression[at + 1] === undefined ? undefined : at + 1;
}

export function fanoutHandlers(): Record<string, Handler> {
  return { xargs, parallel, find, gfind: find };
}
void present;
