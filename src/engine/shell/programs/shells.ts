// Programs that run shell code: `bash|sh|zsh|dash|ksh -c CODE [arg0 args…]`, a shell reading a
// script from stdin (`… | bash`, `bash <<EOF`, `bash <<< '…'`), `eval`, `su -c`, `watch`,
// and `source`/`.` (reads the file named). The code is parsed again and walked like the original;
// its offsets are mapped back into the original command line.
import { CodeBuilder, type Code } from "../code";
import { DATA } from "../normalize";
import type { Handler, Invocation, Runner } from "../runner";
import type { Sym } from "../scope";
import { known, type Arg } from "../words";
import { mention, shown, writtenText } from "./common";

export const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "rbash"];

/** Options of sh-like shells that take the next word as their value. */
const SHELL_VALUE_OPTIONS = /^[-+][A-Za-z]*[oO]$/;
const SHELL_LONG_WITH_VALUE = ["--rcfile", "--init-file"];

const shell: Handler = (inv, r) => {
  const args = inv.args;
  let command = false;
  let fromStdin = false;
  let i = 0;
  const shownArgs: string[] = [];
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (v === undefined) break;
    if (v === "--" || v === "-") {
      shownArgs.push(v);
      i++;
      break;
    }
    if (!/^[-+]/.test(v)) break;
    shownArgs.push(v);
    if (v.startsWith("--")) {
      if (SHELL_LONG_WITH_VALUE.includes(v) && i + 1 < args.length) shownArgs.push(shown(args[++i]));
      continue;
    }
    if (v.startsWith("-") && v.includes("c")) command = true;
    if (v.startsWith("-") && v.includes("s")) fromStdin = true;
    if (SHELL_VALUE_OPTIONS.test(v) && i + 1 < args.length) shownArgs.push(shown(args[++i]));
  }
  const rest = args.slice(i);
  if (command) {
    const code = rest[0];
    r.emit(inv, { head: [inv.name], args: [...shownArgs, ...(code ? [DATA] : []), ...rest.slice(1).map(shown)], fixedOrder: true });
    if (!code) return;
    const positional: Sym[] = rest.slice(1).map(symOf);
    runArgCode(inv, r, code, inv.scope.child(positional), `${inv.name} -c`);
    return;
  }
  r.emit(inv, { head: [inv.name], args: [...shownArgs, ...rest.map(shown)], fixedOrder: true });
  // `bash /dev/stdin`, `sh /dev/fd/0`: the script is what is piped in.
  const stdinScript = rest.length > 0 && known(rest[0]) && /^\/(dev\/stdin|dev\/fd\/0|proc\/self\/fd\/0)$/.test(rest[0].value);
  if (rest.length > 0 && !fromStdin && !stdinScript) {
    if (rest[0].pipe) return runPipeScript(inv, r, rest[0]);
    // `printf 'rm -rf ~' > x.sh && bash x.sh`: a script written earlier in this line runs as written (issue 36).
    const written = writtenText(inv, rest[0]);
    if (written) r.runCode(written, inv.scope.child(rest.slice(1).map(symOf)), { kind: "none" }, inv.depth + 1, `${inv.name} ${shown(rest[0])}, written in this command line`);
    // `bash script.sh`: otherwise runs a file whose content is not known here (like any program would be).
    mention(inv, r, rest[0]);
    return;
  }
  runStdin(inv, r, `${inv.name} reading its stdin`);
};

/** `bash <(…)`, `source <(…)`: the script is what the substitution prints. */
function runPipeScript(inv: Invocation, r: Runner, a: Arg): void {
  if (a.output) r.runCode(a.output, inv.scope.child(), { kind: "none" }, inv.depth + 1, `${inv.name} <(…)`);
  else r.uncertain(`${inv.name} runs a script printed by \`${a.text}\`, which is only known when it runs`, a.span);
}

/** Code read from stdin by a shell: known text is analysed; anything else is a script nobody saw. */
function runStdin(inv: Invocation, r: Runner, why: string): void {
  const input = inv.stdin;
  if (input.kind === "text") r.runCode(input.code, inv.scope.child(), { kind: "none" }, inv.depth + 1, why);
  else if (input.kind === "unknown") r.uncertain(`${inv.name} runs a script read from ${input.from}, which is only known when it runs`, inv.span);
  else if (input.kind === "under") r.uncertain(`${inv.name} runs file names as commands`, inv.span);
}

/** Runs an argument as shell code; unknown parts stay as written (`$CMD`) and the walk reports them. */
export function runArgCode(inv: Invocation, r: Runner, code: Arg, scope = inv.scope.child(), why = inv.name): void {
  if (!code.code) {
    r.uncertain(`${why} runs code that is only known when the command runs`, code.span);
    return;
  }
  r.runCode(code.code, scope, { kind: "none" }, inv.depth + 1, why);
}

function symOf(a: Arg): Sym {
  if (a.under) return { kind: "under", dirs: a.under };
  if (known(a)) return a.code ? { kind: "literal", value: a.value, code: a.code } : { kind: "literal", value: a.value };
  return { kind: "unknown" };
}

/** Joins words with spaces, as eval and watch do, keeping original offsets. */
export function joinCode(args: readonly Arg[]): Code | undefined {
  if (args.length === 0) return undefined;
  const b = new CodeBuilder();
  args.forEach((a, i) => {
    if (i > 0) b.push(" ", () => a.span.start);
    if (a.code) b.pushCode(a.code);
    else b.push(a.text, (j) => a.span.start + j);
  });
  return b.build(args[0].span.start);
}

const evalHandler: Handler = (inv, r) => {
  r.emit(inv, { head: ["eval"], args: inv.args.map(() => DATA), fixedOrder: true });
  const code = joinCode(inv.args);
  if (code) r.runCode(code, inv.scope, inv.stdin, inv.depth + 1, "eval");
};

const watch: Handler = (inv, r) => {
  // watch [options] command…: the words are joined and run by `sh -c` (unless -x).
  let i = 0;
  const own: string[] = [];
  for (; i < inv.args.length; i++) {
    const v = inv.args[i].value;
    if (v === undefined || !v.startsWith("-")) break;
    own.push(v);
    if (/^-[A-Za-z]*[ndq]$/.test(v) || ["--interval", "--differences", "--equexit"].includes(v)) own.push(shown(inv.args[++i] ?? inv.args[i - 1]));
    if (v === "--") break;
  }
  const rest = inv.args.slice(i);
  r.emit(inv, { head: ["watch"], args: [...own, ...rest.map(shown)], fixedOrder: true });
  const code = joinCode(rest);
  if (code) r.runCode(code, inv.scope.child(), { kind: "none" }, inv.depth + 1, "watch");
};

const su: Handler = (inv, r) => {
  const i = inv.args.findIndex((a) => a.value === "-c" || a.value === "--command");
  const eq = inv.args.find((a) => a.value?.startsWith("--command="));
  r.emit(inv, { head: ["su"], args: inv.args.map((a, j) => (j === i + 1 && i >= 0 ? DATA : shown(a))), fixedOrder: true });
  if (i >= 0 && inv.args[i + 1]) runArgCode(inv, r, inv.args[i + 1], inv.scope.child(), "su -c");
  else if (eq?.code) r.runCode({ ...eq.code, text: eq.code.text.slice(10), offsets: eq.code.offsets?.slice(10), base: eq.code.base + 10 }, inv.scope.child(), { kind: "none" }, inv.depth + 1, "su -c");
};

const source: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map(shown) });
  if (inv.args[0]?.pipe) return runPipeScript(inv, r, inv.args[0]);
  if (inv.args[0]) r.path(inv, inv.args[0], "read", false, inv.name);
  const written = inv.args[0] && writtenText(inv, inv.args[0]);
  if (written) r.runCode(written, inv.scope, { kind: "none" }, inv.depth + 1, `${inv.name} ${shown(inv.args[0])}, written in this command line`);
};

/**
 * `make -f -` (or `-f /dev/stdin`): the makefile is what is piped in, and its recipe lines (those
 * starting with a tab) are shell commands. A makefile on disk is not read here (no I/O).
 */
const make: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map(shown), fixedOrder: true });
  const args = inv.args;
  const fromStdin = args.some((a, i) => {
    const v = a.value ?? "";
    const f = /^(?:-f|--file|--makefile)$/.test(v) ? args[i + 1]?.value : (/^(?:-f|--file=|--makefile=)(.+)$/.exec(v)?.[1] ?? undefined);
    return f === "-" || f === "/dev/stdin";
  });
  if (!fromStdin) return;
  if (inv.stdin.kind !== "text") {
    r.uncertain(`${inv.name} runs the recipes of a makefile read from its stdin, which is only known when it runs`, inv.span);
    return;
  }
  const code = inv.stdin.code;
  let at = 0;
  for (const line of code.text.split("\n")) {
    const m = /^\t[@+-]*(.*)$/.exec(line);
    if (m && m[1].trim() !== "") {
      const start = at + line.length - m[1].length;
      r.runCode({ text: m[1], base: code.base, offsets: Array.from(m[1], (_, k) => (code.offsets ? code.offsets[Math.min(code.offsets.length - 1, start + k)] : code.base + start + k)) }, inv.scope.child(), { kind: "none" }, inv.depth + 1, "a make recipe");
    }
    at += line.length + 1;
  }
};

export function shellHandlers(): Record<string, Handler> {
  const out: Record<string, Handler> = { eval: evalHandler, watch, su, source, ".": source, make, gmake: make };
  for (const s of SHELLS) out[s] = shell;
  return out;
}
