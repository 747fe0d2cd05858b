// argv → the handler that knows the program. Unknown programs get the default treatment: their
// text is shown whole (patterns see every argument), and every argument that may name a file
// counts as reading it (so `openssl … -in key.pem` or `docker --env-file .env` touch zero-access
// paths), except option-looking words. Long options that are messages (`--message`, `--title`,
// `--body`) are data.
import { streamedCommands } from "./programs/command-streams";
import { DATA } from "./normalize";
import { fanoutHandlers } from "./programs/fanout";
import { fileHandlers } from "./programs/files";
import { gitHandlers } from "./programs/git";
import { interpreterFamily, interpreterHandlers } from "./programs/interpreters";
import { mention, shown } from "./programs/common";
import { shellHandlers } from "./programs/shells";
import { sqlHandlers } from "./programs/sql";
import { EFFECT_TABLE, genericEffects, tableHandler, type GenericReading } from "./programs/table";
import { wrapperHandlers } from "./programs/wrappers";
import { deviceHandlers } from "./programs/devices";
import { remoteShellHandlers } from "./programs/remote-shell";
import { windowsShellHandlers } from "./programs/windows-shells";
import { secretFlow } from "./programs/secret-flow";
import { carriedCommands } from "./programs/carriers";
import { remoteEffects } from "../remote/analyze";
import { REMOTE_TABLE } from "../remote/table";
import type { Handler, Invocation, RunResult, Runner } from "./runner";
import type { RemoteEffect } from "./types";
import { known, type Arg } from "./words";

const HANDLERS: Record<string, Handler> = {
  ...fileHandlers(),
  ...gitHandlers(),
  ...shellHandlers(),
  ...wrapperHandlers(),
  ...fanoutHandlers(),
  ...interpreterHandlers(),
  ...sqlHandlers(),
  ...deviceHandlers(),
  ...remoteShellHandlers(),
  ...windowsShellHandlers(),
};

const MESSAGE_OPTION = /^--(message|title|body|description|comment|subject|notes)$/;

const unknownProgram: GenericReading = (inv, r, skip) => {
  const data = new Set<Arg>();
  inv.args.forEach((a, i) => {
    const v = a.value ?? "";
    if (MESSAGE_OPTION.test(v) && inv.args[i + 1]) data.add(inv.args[i + 1]);
    if (/^--(message|title|body|description|comment|subject|notes)=/.test(v)) data.add(a);
  });
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => (data.has(a) ? (a.value?.startsWith("--") ? a.value.split("=")[0] + "=" + DATA : DATA) : shown(a))) });
  for (const a of inv.args) if (!data.has(a) && !skip?.has(a)) mention(inv, r, a);
};

const BUILT_IN = new Set(Object.keys(HANDLERS));
for (const [name, rows] of Object.entries(EFFECT_TABLE)) HANDLERS[name] ??= tableHandler(rows, unknownProgram);

/** What the analysis knows about a program name, found once per name (see factsOf). */
export interface ProgramFacts {
  /** The handler that reads it (`busybox rm …` is `rm …`: the applet is the program). */
  handler: Handler;
  /** knownProgram: a handler, a remote-table row or an interpreter. */
  known: boolean;
  /** handledProgram: a handler that knows which words are its data. */
  handled: boolean;
  /** A row of the remote-effects table. */
  remote: boolean;
}

/**
 * Program name → its facts. Every command asks these questions of its program several times
 * (programOf, dashedSubcommand, dispatch, the pattern anchors), each a lookup in the handler
 * table (an object with hundreds of names), the remote table, and for a name in neither up to six
 * interpreter regexes: one Map lookup answers them all. Pure functions of the name; bounded.
 */
const programFacts = new Map<string, ProgramFacts>();
const MAX_PROGRAM_FACTS = 2048;

function factsOf(name: string): ProgramFacts {
  let f = programFacts.get(name);
  if (f === undefined) {
    if (programFacts.size >= MAX_PROGRAM_FACTS) programFacts.clear();
    programFacts.set(name, (f = programFactsOf(name)));
  }
  return f;
}

/** The facts of one name, computed (factsOf remembers them). */
export function programFactsOf(name: string): ProgramFacts {
  const own = Object.prototype.hasOwnProperty.call(HANDLERS, name);
  const family = interpreterFamily(name);
  const remote = REMOTE_TABLE.has(name);
  return {
    // Own names only: a program called `constructor` or `__proto__` is an unknown program, not Object.prototype's.
    handler: (own ? HANDLERS[name] : undefined) ?? (family !== undefined && Object.prototype.hasOwnProperty.call(HANDLERS, family) ? HANDLERS[family] : undefined) ?? unknownProgram,
    known: own || remote || family !== undefined,
    // Table rows keep the generic reading of their words: not "understood" for pattern anchoring.
    handled: Object.prototype.hasOwnProperty.call(EFFECT_TABLE, name) && HANDLERS[name] !== undefined && !BUILT_IN.has(name) ? false : own || family !== undefined,
    remote,
  };
}

/**
 * Programs that run another command line from their words: `--help` among those words may be the
 * other command's (`bash -c '…' --help` runs the code), so it never means help here.
 */
const RUNS_OTHERS = new Set([
  ...Object.keys(shellHandlers()), ...Object.keys(wrapperHandlers()), ...Object.keys(fanoutHandlers()), ...Object.keys(interpreterHandlers()),
  "ssh", "docker", "podman", "kubectl", "oc", "npx", "npm", "pnpm", "yarn", "bunx", "bun", "deno", "uv", "uvx", "poetry", "pipx", "make", "git", "cmd", "pwsh", "powershell", "nix", "nix-shell", "devbox", "mise", "asdf", "direnv", "just", "task",
]);
/** CLIs whose help is a last word (`aws s3 rm help`). */
const HELP_LAST = new Set(["aws", "az", "gcloud"]);

/** Does the invocation only print its help (`--help`, `-help`, `heroku help pg:reset`, `aws s3 rm help`)? Issue 36: everyday. */
function onlyHelp(inv: Invocation): boolean {
  const v = inv.args.map((a) => (known(a) ? a.value : undefined));
  // A container CLI's own verbs print their help; what it runs inside (`exec`, `run`) may take `--help` as its own.
  const container = /^(docker|podman|kubectl|oc)$/.test(inv.name) && !v.some((x) => x !== undefined && /^(exec|run|debug|attach|start|create|compose|cp)$/.test(x));
  if (interpreterFamily(inv.name) !== undefined) return frameworkHelp(v.slice(v.findIndex((x) => x === undefined || !x.startsWith("-"))));
  if (RUNS_OTHERS.has(inv.name) && !container) return false;
  if (frameworkHelp([inv.name, ...v])) return true;
  if (v.some((x) => x === "--help" || x === "-help")) return true;
  const words = v.filter((x) => x !== undefined && !x.startsWith("-"));
  return words[0] === "help" || (HELP_LAST.has(inv.name) && v[v.length - 1] === "help");
}

/**
 * Frameworks' command runners (Symfony Console, argparse, Rails, Rake): any verb given `--help`
 * or `-h`, or `help VERB`, prints that verb's help and runs nothing (`php artisan migrate:fresh
 * --help`, `python manage.py flush -h`). Their `-h` is help; elsewhere it is often a host.
 */
const FRAMEWORK_RUNNERS = new Set(["artisan", "manage.py", "rails", "rake", "console"]);

/** `words`: the runner script (as written) and its arguments. */
function frameworkHelp(words: readonly (string | undefined)[]): boolean {
  const script = words[0];
  if (script === undefined || !FRAMEWORK_RUNNERS.has(script.slice(script.lastIndexOf("/") + 1))) return false;
  const rest = words.slice(1);
  return rest[0] === "help" || rest.some((x) => x === "--help" || x === "-h");
}

export function dispatch(inv: Invocation, r: Runner): RunResult | void {
  const at = r.sink.commands.length;
  if (onlyHelp(inv)) {
    // Shown without the program's name: the rules about the program must not read its help as it.
    r.emitText("help", inv.span);
    return { stdout: { kind: "unknown", from: `the help of ${inv.name}` }, text: "help" };
  }
  const facts = factsOf(inv.name);
  const handler = facts.handler; // called as a plain function, as before the facts were kept
  const result = handler(inv, r) ?? undefined;
  genericEffects(inv, r);
  // Commands carried by an option or a configuration value (issue 36): judged as what they run.
  carriedCommands(inv, r);
  // Commands read on stdin, a line each (`echo FLUSHALL | redis-cli`): judged as that program run with the line.
  streamedCommands(inv, r);
  // What it does outside the working tree (src/engine/remote/): one Map lookup by name.
  const inTable = facts.remote;
  const understood = !inTable && facts.handled;
  if (inTable || !understood) {
    const found: RemoteEffect[] = [];
    remoteEffects({ name: inv.name, args: inv.args.map((a) => (known(a) ? a.value : undefined)), texts: () => inv.args.map((a) => a.text), span: inv.span }, understood, found);
    for (const e of found) r.sink.remoteEffect(e);
  }
  const text = result?.text ?? r.sink.commands[at]?.text;
  // Secrets printed, used or sent to another host (issue 36): the output carries what it holds.
  const stdout = secretFlow(inv, r, result?.stdout ?? { kind: "unknown", from: `the output of ${inv.name}` });
  return { stdout, text };
}
void shown;

/**
 * The program a command word reaches, however it is spelled: no directory (`/usr/libexec/git-core/git`,
 * `C:\\Program Files\\Git\\cmd\\git.exe`), no Windows suffix (`git.exe`, `python3.11.exe`), and a
 * versioned name of a program the analysis knows (`psql-15`, `git-2.39`) is that program. Interpreters
 * keep their version (`python3.11`: interpreterFamily reads it); `mkfs.ext4` is its own program.
 */
export function programOf(word: string): string {
  // The last `/` or `\` by hand: String#lastIndexOf is a call into the runtime, twice per command.
  let cut = word.length - 1;
  while (cut >= 0 && word.charCodeAt(cut) !== 47 && word.charCodeAt(cut) !== 92) cut--;
  let name = cut < 0 ? word : word.slice(cut + 1);
  // Only a name with a dot four from its end can carry a Windows suffix.
  const windows = name.charCodeAt(name.length - 4) === 46 ? /\.(exe|cmd|bat|com)$/i.exec(name) : null;
  if (windows) name = name.slice(0, windows.index).toLowerCase();
  if (knownProgram(name)) return name;
  // A version ends in a digit.
  const lastCode = name.charCodeAt(name.length - 1);
  const versioned = lastCode >= 48 && lastCode <= 57 ? /^(.+?)-?\d+(?:\.\d+)*$/.exec(name) : null;
  return versioned && knownProgram(versioned[1]) ? versioned[1] : name;
}

/** Programs that ship their subcommands as dashed executables (git-core's `git-push`): `git-push X` is `git push X`. */
const DASHED_SUBCOMMANDS = new Set(["git"]);

/** `git-push` → git + push, for a program name the analysis does not know by itself. */
export function dashedSubcommand(name: string): { program: string; sub: string } | undefined {
  if (knownProgram(name)) return undefined;
  const m = /^([a-z0-9]+)-([a-z][a-z0-9-]*)$/.exec(name);
  return m && DASHED_SUBCOMMANDS.has(m[1]) ? { program: m[1], sub: m[2] } : undefined;
}

function knownProgram(name: string): boolean {
  return factsOf(name).known;
}

/** Is `name` a program the analysis has a handler for (so it knows which words are its data)? */
export function handledProgram(name: string): boolean {
  return factsOf(name).handled;
}

/** The program names with a handler (for a command word that is itself a glob: `/usr/bin/r[m]`). */
export function handledPrograms(): string[] {
  return Object.keys(HANDLERS);
}
