// Programs that run another program: sudo, doas/pkexec/run0 (also shown as sudo), sudoedit, env (and its `VAR=value` words), command,
// builtin, exec, nice, nohup, time, timeout, stdbuf, ionice, setsid, busybox, chronic, unbuffer,
// and the project-runner forms `uv run`, `poetry run`, `pipenv run`, `bundle exec`, and the
// package runners `npx`, `npm exec`/`npm x`, `pnpm dlx`/`pnpm exec`, `yarn dlx`/`yarn exec`, `bunx`
// (`bun x` is bun's, in interpreters.ts: its text is shown whole), and `pnpm <bin>`/`yarn <bin>` (a package's program run by name, e.g. `yarn prisma …`).
// Each is recorded twice: the wrapper invocation itself (so `\bsudo\b` still fires; its text is
// the wrapper and its options followed by the normalized wrapped command), then the wrapped command.
import { CodeBuilder } from "../code";
import { programName } from "../normalize";
import { systemRead } from "../../remote/system-reads";
import type { ExecutedCommand } from "../types";
import { parseOptions, stopAtOperand, valuesOf, type OptionSpec } from "../options";
import { resolvePath } from "../../paths";
import type { Handler, Invocation, Runner, RunResult } from "../runner";
import { known, syntheticArg, type Arg } from "../words";
import { CONTAINER_CLIS, mention, shown } from "./common";
import { runArgCode } from "./shells";

interface WrapperSpec extends OptionSpec {
  /** Operands to skip after the options before the wrapped program (timeout's DURATION). */
  skipOperands?: number;
  /** Options that mean "do not run anything" (`command -v`). */
  noRun?: string[];
  /** Options whose value is the directory the wrapped program starts in. */
  chdir?: string[];
  /** Options whose value is shell code the wrapper runs (`npx -c 'prisma migrate reset'`). */
  code?: string[];
  /** The wrapped word names a package, whose program is run: `prisma@5` → prisma, `@scope/cli@2` → cli. */
  packageBin?: boolean;
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
      // `uv sync`, `poetry install`: not a runner form, so the default treatment (text shown whole).
      if (inv.args[0]?.value !== sub) return asUnknownProgram(inv, r);
      return runWrapper({ ...inv, args: inv.args.slice(1) }, r, stopAtOperand(spec), [name, sub]);
    };
  }
  for (const [name, pm] of Object.entries(PACKAGE_MANAGERS)) out[name] = (inv, r) => runPackageManager(inv, r, name, pm);
  out.make = runMake;
  out.gmake = runMake;
  out.npx = (inv, r) => runWrapper(inv, r, NPX_SPEC);
  out.bunx = (inv, r) => runWrapper(inv, r, BUNX_SPEC);
  for (const name of CONTAINER_CLIS) out[name] = runContainerCli;
  return out;
}

// Container CLIs. Their own verbs (`docker rm -f c`, `docker image rm i`, `docker compose rm`) act
// on containers and images: their words are the CLI's data, so a pattern written for the rm
// program does not judge them (a pattern written for docker, such as the defaults' volume rules,
// still does). What `exec` and `run` start inside a container is shown as the command it is, as
// for any wrapper: `docker exec db rm -rf /data` is judged as `rm -rf /data`.
const CONTAINER_GLOBAL: OptionSpec = { shortWithValue: "Hcl", longWithValue: ["host", "context", "config", "log-level", "tlscacert", "tlscert", "tlskey", "url", "connection", "root", "runroot", "namespace", "address"], stopAtOperand: true };
const CONTAINER_EXEC: WrapperSpec = { shortWithValue: "euw", longWithValue: ["env", "env-file", "user", "workdir", "detach-keys", "index"], skipOperands: 1 };
const CONTAINER_RUN: WrapperSpec = {
  shortWithValue: "eupvwlhmc",
  longWithValue: ["env", "env-file", "user", "publish", "volume", "workdir", "label", "hostname", "memory", "cpu-shares", "name", "network", "net", "entrypoint", "mount", "platform", "cpus", "add-host", "device", "restart", "log-driver", "log-opt", "ulimit", "cap-add", "cap-drop", "gpus", "pull", "runtime", "shm-size", "tmpfs", "dns", "expose", "health-cmd", "stop-signal", "security-opt", "userns", "pid", "ipc", "cgroupns", "volumes-from", "link", "label-file", "cidfile", "group-add", "sysctl", "storage-opt", "mac-address", "ip", "ip6", "network-alias", "service-ports", "use-aliases"],
  skipOperands: 1,
};

function runContainerCli(inv: Invocation, r: Runner): RunResult | void {
  const global = parseOptions(inv.args, CONTAINER_GLOBAL);
  let at = global.restIndex;
  const word = (i: number) => inv.args[i]?.value;
  // `docker container exec`, `docker compose exec`: the group word, then the verb.
  if (word(at) === "container" || word(at) === "compose") at++;
  const verb = word(at);
  if (verb === "exec" || verb === "run") {
    const head = [inv.name, ...inv.args.slice(0, at + 1).map(shown)];
    return runWrapper({ ...inv, args: inv.args.slice(at + 1) }, r, verb === "exec" ? CONTAINER_EXEC : CONTAINER_RUN, head);
  }
  r.emit(inv, { head: [inv.name], args: inv.args.map(shown) });
  for (const a of inv.args.slice(at + 1)) mention(inv, r, a);
}

// Package runners. Their own options come first; the first operand is the package (its program).
const NPX_SPEC: WrapperSpec = { shortWithValue: "pc", longWithValue: ["package", "call", "node-options", "userconfig", "cache", "registry", "workspace"], code: ["c", "call"], packageBin: true };
const BUNX_SPEC: WrapperSpec = { shortWithValue: "p", longWithValue: ["package"], packageBin: true };
const PNPM_EXEC_SPEC: WrapperSpec = { shortWithValue: "F", longWithValue: ["package", "filter", "dir", "workspace-concurrency", "resume-from", "report-summary"], packageBin: true };
const YARN_EXEC_SPEC: WrapperSpec = { shortWithValue: "p", longWithValue: ["package"], packageBin: true };

interface PackageManager {
  /** Options before the subcommand (`pnpm --filter api exec …`, `yarn --cwd web prisma …`). */
  global: OptionSpec;
  /** Subcommands that run a package's program, with the spec of their own options. */
  runners: Record<string, WrapperSpec>;
  /**
   * The manager's own subcommands (`pnpm rm lodash` removes a dependency, not a file): anything else
   * is a package's program run by name (`yarn prisma migrate reset`, `pnpm tsc`). Undefined: no
   * program runs by name (`npm prisma` is an error).
   */
  builtins?: ReadonlySet<string>;
  /** `yarn workspace NAME CMD…`: skip the subcommand and its NAME, then read CMD again. */
  workspace?: string;
}

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));
const PACKAGE_MANAGERS: Record<string, PackageManager> = {
  npm: { global: { shortWithValue: "w", longWithValue: ["prefix", "workspace", "userconfig", "cache", "registry"] }, runners: { exec: NPX_SPEC, x: NPX_SPEC } },
  pnpm: {
    global: { shortWithValue: "CF", longWithValue: ["dir", "filter", "workspace-concurrency", "reporter", "loglevel", "config"] },
    runners: { dlx: PNPM_EXEC_SPEC, exec: PNPM_EXEC_SPEC },
    builtins: words(`add install i update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch patch
      patch-commit patch-remove audit list ls ll la outdated why licenses run run-script test t tst start restart stop create init
      publish pack store env setup config c get set root bin doctor deploy server self-update cat-file cat-index find-hash help
      approve-builds ignored-builds dedupe install-test it recursive multi m node completion owner search info view show docs
      home bugs repo version login logout adduser whoami team token profile access dist-tag deprecate unpublish star stars ping
      exec dlx catalog sbom`),
  },
  yarn: {
    global: { longWithValue: ["cwd", "modules-folder", "cache-folder", "mutex", "network-timeout"] },
    runners: { dlx: YARN_EXEC_SPEC, exec: YARN_EXEC_SPEC },
    builtins: words(`add install remove upgrade up upgrade-interactive run exec dlx init info config cache workspaces why link unlink
      pack publish npm plugin set version constraints dedupe explain node rebuild patch patch-commit search stage unplug
      login logout list outdated global generate-lock-entry import licenses owner tag team test audit autoclean check bin
      create help policies import start`),
    workspace: "workspace",
  },
};

function runPackageManager(inv: Invocation, r: Runner, name: string, pm: PackageManager): RunResult | void {
  let parsed = parseOptions(inv.args, stopAtOperand(pm.global));
  let head = [name, ...inv.args.slice(0, parsed.restIndex).map(shown)];
  let rest = inv.args.slice(parsed.restIndex);
  if (pm.workspace && rest[0]?.value === pm.workspace && rest.length > 2) {
    head = [...head, ...rest.slice(0, 2).map(shown)];
    rest = rest.slice(2);
    parsed = parseOptions(rest, stopAtOperand(pm.global));
  }
  const sub = rest[0];
  if (!sub || !known(sub)) return asUnknownProgram(inv, r);
  const runner = pm.runners[sub.value];
  if (runner) return runWrapper({ ...inv, args: rest.slice(1) }, r, runner, [...head, sub.value]);
  if (sub.value.startsWith("-") || /[/\\.]/.test(sub.value)) return asUnknownProgram(inv, r);
  if (!pm.builtins || pm.builtins.has(sub.value)) return asManagerCommand(inv, r, sub);
  // `yarn prisma migrate reset`: the package's program, run by name.
  return runWrapper({ ...inv, args: rest }, r, { packageBin: false }, head);
}

// make: the recipes it runs are only visible when the makefile is in the command itself
// (`make -f - reset <<'EOF' … EOF`). Then the recipes of the named targets (or of the first
// target) and of their prerequisites are analysed as the shell code make hands to sh; otherwise the
// command is shown whole, as for any program (the Makefile on disk is not read: the engine does no I/O).
const MAKE_SPEC: OptionSpec = { shortWithValue: "fCIoWjl", longWithValue: ["file", "makefile", "directory", "include-dir", "old-file", "new-file", "assume-old", "assume-new", "what-if", "jobs", "load-average", "eval"] };
const MAKE_DRY_RUN = new Set(["n", "dry-run", "just-print", "recon", "q", "question", "p", "print-data-base"]);

function runMake(inv: Invocation, r: Runner): RunResult | void {
  asUnknownProgram(inv, r);
  const parsed = parseOptions(inv.args, MAKE_SPEC);
  if (parsed.options.some((o) => MAKE_DRY_RUN.has(o.name))) return;
  const file = valuesOf(parsed, "f", "file", "makefile");
  if (!(file.length === 1 && known(file[0]) && file[0].value === "-" && inv.stdin.kind === "text")) return;
  const code = inv.stdin.code;
  const rules = readMakefile(code.text);
  const targets = parsed.operands.filter((a) => known(a) && !a.value.includes("=")).map((a) => a.value!);
  const todo = targets.length ? targets : [...rules.keys()].filter((t) => !t.startsWith(".")).slice(0, 1);
  const done = new Set<string>();
  while (todo.length && done.size < 64) {
    const t = todo.shift()!;
    if (done.has(t)) continue;
    done.add(t);
    const rule = rules.get(t);
    if (!rule) continue;
    todo.push(...rule.prereqs);
    for (const [start, end] of rule.recipe) {
      const b = new CodeBuilder();
      b.pushCode(code, start, end);
      r.runCode(b.build(code.offsets?.[start] ?? code.base + start), inv.scope.child(), { kind: "none" }, inv.depth + 1, `make ${t}`);
    }
  }
}

/** Targets → prerequisites and recipe lines ([start, end) in the text, without the tab and @-+ prefixes). */
function readMakefile(text: string): Map<string, { prereqs: string[]; recipe: [number, number][] }> {
  const rules = new Map<string, { prereqs: string[]; recipe: [number, number][] }>();
  let current: { prereqs: string[]; recipe: [number, number][] }[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    const start = at;
    at += line.length + 1;
    if (line.startsWith("\t")) {
      const prefix = /^\t[@+\-\s]*/.exec(line)![0].length;
      if (line.trim() !== "") for (const rule of current) rule.recipe.push([start + prefix, start + line.length]);
      continue;
    }
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = /^([^:=#\t][^:=#]*?)\s*::?(?!=)\s*([^;#]*)(?:;\s*(.*))?$/.exec(line);
    if (!m) {
      current = [];
      continue;
    }
    current = m[1].split(/\s+/).filter(Boolean).map((t) => {
      const rule = rules.get(t) ?? { prereqs: [], recipe: [] };
      rules.set(t, rule);
      rule.prereqs.push(...m[2].split(/\s+/).filter(Boolean));
      return rule;
    });
    if (m[3] !== undefined && m[3].trim() !== "") {
      const inline = start + line.length - m[3].length;
      for (const rule of current) rule.recipe.push([inline, start + line.length]);
    }
  }
  return rules;
}

/** What dispatch does for a program it does not know: the text whole, and every word may name a file it reads. */
/** Script runners: the word after them is a script of package.json (`npm run build`). */
const RUN_SCRIPT = new Set(["run", "run-script", "rum", "urn"]);

/**
 * A manager's own subcommand (`npm run build`, `pnpm add lodash`): shown whole, as for any
 * program; the subcommand and a script's name are words of the manager, not files, so only the
 * other words count as possible reads.
 */
function asManagerCommand(inv: Invocation, r: Runner, sub: Arg): RunResult | void {
  r.emit(inv, { head: [inv.name], args: inv.args.map(shown) });
  const at = inv.args.indexOf(sub);
  const script = RUN_SCRIPT.has(sub.value ?? "") ? inv.args[at + 1] : undefined;
  const named = script && known(script) && !script.value.startsWith("-") ? script : undefined;
  for (const a of inv.args) if (a !== sub && a !== named) mention(inv, r, a);
}

function asUnknownProgram(inv: Invocation, r: Runner): RunResult | void {
  r.emit(inv, { head: [inv.name], args: inv.args.map(shown) });
  for (const a of inv.args) mention(inv, r, a);
}

/** `prisma@5.2.0` → prisma; `@scope/tool@1` → tool; `@railway/cli` → railway (a scope's `cli` is named after the scope). */
function binOfPackage(spec: string): string {
  const m = /^(?:@([^/@]+)\/)?([^@]+)(?:@.*)?$/.exec(spec);
  if (!m) return spec;
  return m[1] && m[2] === "cli" ? m[1] : m[2];
}

function runWrapper(inv: Invocation, r: Runner, spec: WrapperSpec, head: string[] = [inv.name]): RunResult | void {
  const parsed = parseOptions(inv.args, stopAtOperand(spec));
  let inner = inv.args.slice(parsed.restIndex);
  const own = inv.args.slice(0, parsed.restIndex);
  // `npx -c 'prisma migrate reset'`, `npm exec --call=…`: the value is shell code it runs.
  const code = spec.code ? parsed.options.filter((o) => spec.code!.includes(o.name) && o.value) : [];
  if (code.length) {
    r.emit(inv, { head, args: own.map(shown) });
    for (const o of code) runArgCode(inv, r, o.value!, inv.scope.child(), `${head.join(" ")} -c`);
    return;
  }
  if (spec.packageBin && inner[0] && known(inner[0])) {
    const bin = binOfPackage(inner[0].value);
    if (bin !== inner[0].value) inner = [{ ...inner[0], value: bin, text: bin }, ...inner.slice(1)];
  }
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
  const confined = privileged || inv.name === "sudo" ? confinedAs(inner) : undefined;
  r.emitText([...head, ...own.map(shown), innerText].join(" "), inv.span, at, confined);
  if (privileged) r.emitText(["sudo", ...own.map(shown), innerText].join(" "), inv.span, at + 1, confined);
  return result;
}

/** Owner, group and mode changes: confined when every file they name lies in the workspace. */
const OWNERSHIP = new Set(["chown", "chgrp", "chmod"]);

/** What a privileged command is confined to (ExecutedCommand.confined), if anything. */
function confinedAs(inner: readonly Arg[]): ExecutedCommand["confined"] {
  const program = known(inner[0]) ? programName(inner[0].value) : undefined;
  if (program === undefined) return undefined;
  const words = inner.slice(1).map((a) => (known(a) ? a.value : undefined));
  if (systemRead(program, words)) return "reads";
  return OWNERSHIP.has(program) ? "workspace" : undefined;
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
