// Programs that run another program: sudo, doas/pkexec/run0 (also shown as sudo), sudoedit, env (and its `VAR=value` words), command,
// builtin, exec, nice, nohup, time, timeout, stdbuf, ionice, setsid, busybox, chronic, unbuffer,
// and the project-runner forms `uv run`, `poetry run`, `pipenv run`, `bundle exec`.
// Each is recorded twice: the wrapper invocation itself (so `\bsudo\b` still fires; its text is
// the wrapper and its options followed by the normalized wrapped command), then the wrapped command.
import { CodeBuilder } from "../code";
import { parseOptions, valuesOf, type OptionSpec } from "../options";
import { resolvePath } from "../../paths";
import type { Handler, Invocation, Runner, RunResult } from "../runner";
import { known, syntheticArg, type Arg } from "../words";
import { shown } from "./common";

interface WrapperSpec extends OptionSpec {
  /** Operands to skip after the options before the wrapped program (timeout's DURATION). */
  skipOperands?: number;
  /** Options that mean "do not run anything" (`command -v`). */
  noRun?: string[];
  /** Options whose value is the directory the wrapped program starts in. */
  chdir?: string[];
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { shortWithValue: "ugpCDhrtTUc", longWithValue: ["user", "group", "prompt", "chdir", "close-from", "host", "role", "type", "command-timeout", "other-user", "chroot"], noRun: ["l", "list", "v", "validate", "k", "K", "V", "version", "h", "help"], chdir: ["D", "chdir"] },
  doas: { shortWithValue: "uC" },
  pkexec: { longWithValue: ["user"] },
  run0: { shortWithValue: "uDg", longWithValue: ["user", "group", "chdir", "unit", "property", "description", "slice", "nice", "setenv", "background"], chdir: ["D", "chdir"] },
  env: { shortWithValue: "uCS", longWithValue: ["unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"], chdir: ["C", "chdir"] },
  command: { noRun: ["v", "V"] },
  builtin: {},
  exec: { shortWithValue: "a" },
  nice: { shortWithValue: "n", longWithValue: ["adjustment"] },
  nohup: {},
  time: { shortWithValue: "fo", longWithValue: ["format", "output"] },
  timeout: { shortWithValue: "sk", longWithValue: ["signal", "kill-after"], skipOperands: 1 },
  stdbuf: { shortWithValue: "ioe", longWithValue: ["input", "output", "error"] },
  ionice: { shortWithValue: "cnpPu", longWithValue: ["class", "classdata", "pid", "pgid", "uid"] },
  setsid: {},
  chronic: {},
  unbuffer: {},
  caffeinate: { shortWithValue: "tw" },
  busybox: {},
  flock: { shortWithValue: "wEc", longWithValue: ["timeout", "conflict-exit-code"], skipOperands: 1 },
};

/** `uv run X`, `poetry run X`…: a subcommand that runs the rest. */
const RUNNER_SUBCOMMANDS: Record<string, { sub: string; spec: OptionSpec }> = {
  uv: { sub: "run", spec: { shortWithValue: "p", longWithValue: ["with", "python", "project", "directory", "env-file", "extra", "group", "package", "index"] } },
  poetry: { sub: "run", spec: {} },
  pipenv: { sub: "run", spec: {} },
  bundle: { sub: "exec", spec: {} },
  pdm: { sub: "run", spec: {} },
  hatch: { sub: "run", spec: {} },
};

/** Other ways to run a command as another user: the same thing as sudo, also shown as sudo. */
const PRIVILEGE = new Set(["doas", "pkexec", "run0"]);

export function wrapperHandlers(): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  // `sudoedit F` is `sudo -e F`.
  out.sudoedit = (inv, r) => {
    r.emitText(["sudo", "-e", ...inv.args.map(shown)].join(" "), inv.span);
  };
  for (const [name, spec] of Object.entries(WRAPPERS)) out[name] = (inv, r) => runWrapper(inv, r, spec);
  for (const [name, { sub, spec }] of Object.entries(RUNNER_SUBCOMMANDS)) {
    out[name] = (inv, r) => {
      if (inv.args[0]?.value !== sub) return undefined;
      return runWrapper({ ...inv, args: inv.args.slice(1) }, r, { ...spec, stopAtOperand: true }, [name, sub]);
    };
  }
  return out;
}

function runWrapper(inv: Invocation, r: Runner, spec: WrapperSpec, head: string[] = [inv.name]): RunResult | void {
  const parsed = parseOptions(inv.args, { ...spec, stopAtOperand: true });
  let inner = inv.args.slice(parsed.restIndex);
  const own = inv.args.slice(0, parsed.restIndex);
  if (parsed.options.some((o) => spec.noRun?.includes(o.name))) {
    // `command -v rm`, `sudo -l`: names a program without running it. The wrapper is still used.
    r.emit(inv, { head, args: own.map(shown) });
    return;
  }
  // env: NAME=value words set the environment; -S splits a string into more words.
  if (inv.name === "env") {
    const split = valuesOf(parsed, "S", "split-string").flatMap(splitWords);
    while (inner.length && known(inner[0]) && /^[A-Za-z_][A-Za-z0-9_]*=/.test(inner[0].value)) {
      own.push(inner[0]);
      inner = inner.slice(1);
    }
    const splitAssignments = split.filter((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value ?? ""));
    inner = [...split.filter((a) => !splitAssignments.includes(a)), ...inner];
  }
  if (spec.skipOperands) {
    own.push(...inner.slice(0, spec.skipOperands));
    inner = inner.slice(spec.skipOperands);
  }
  if (inv.name === "busybox" && inner.length === 0) return;
  let scope = inv.scope;
  // `env A=1 cmd`: cmd's environment has A (GIT_CONFIG_COUNT… for git).
  if (inv.name === "env") {
    const sets = own.filter((a) => known(a) && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value));
    if (sets.length) {
      scope = scope.fork();
      for (const a of sets) {
        const v = a.value!;
        scope.set(v.slice(0, v.indexOf("=")), { kind: "literal", value: v.slice(v.indexOf("=") + 1) });
      }
    }
  }
  const dir = spec.chdir ? valuesOf(parsed, ...spec.chdir)[0] : undefined;
  if (dir) {
    scope = scope === inv.scope ? scope.fork() : scope;
    scope.cwd = known(dir) && scope.cwd !== undefined ? resolvePath(dir.value, { cwd: scope.cwd, home: scope.home }) : undefined;
  }
  const at = r.sink.commands.length;
  const privileged = PRIVILEGE.has(inv.name);
  if (inner.length === 0) {
    // `sudo -s`, `sudo -i`: an interactive shell; `nohup` alone: nothing to run.
    r.emitText([...head, ...own.map(shown)].join(" "), inv.span, at);
    if (privileged) r.emitText(["sudo", ...own.map(shown)].join(" "), inv.span, at + 1);
    return;
  }
  const innerSpan = { start: inner[0].span.start, end: Math.max(inner[0].span.end, inv.span.end) };
  const result = r.run(inner, scope, inv.stdin, innerSpan, inv.depth + 1);
  const innerText = result.text ?? inner.map(shown).join(" ");
  r.emitText([...head, ...own.map(shown), innerText].join(" "), inv.span, at);
  if (privileged) r.emitText(["sudo", ...own.map(shown), innerText].join(" "), inv.span, at + 1);
  return result;
}

/** `env -S 'A=1 git reset --hard'`: the string is split on blanks into words (no quotes handled). */
function splitWords(a: Arg): Arg[] {
  if (!known(a) || !a.code) return [];
  const out: Arg[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(a.value))) {
    const b = new CodeBuilder();
    b.pushCode(a.code, m.index, m.index + m[0].length);
    const code = b.build(a.span.start);
    out.push(syntheticArg(m[0], { start: code.offsets?.[0] ?? a.span.start, end: (code.offsets?.[m[0].length - 1] ?? a.span.start) + 1 }, code));
  }
  return out;
}
