// argv → the handler that knows the program. Unknown programs get the default treatment: their
// text is shown whole (patterns see every argument), and every argument that may name a file
// counts as reading it (so `openssl … -in key.pem` or `docker --env-file .env` touch zero-access
// paths), except option-looking words. Long options that are messages (`--message`, `--title`,
// `--body`) are data.
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

/** `busybox rm …` is `rm …`: the applet is the program. */
function handlerFor(name: string): Handler {
  return HANDLERS[name] ?? HANDLERS[interpreterFamily(name) ?? ""] ?? unknownProgram;
}

export function dispatch(inv: Invocation, r: Runner): RunResult | void {
  const at = r.sink.commands.length;
  const result = handlerFor(inv.name)(inv, r) ?? undefined;
  genericEffects(inv, r);
  // What it does outside the working tree (src/engine/remote/): one Map lookup by name.
  const inTable = REMOTE_TABLE.has(inv.name);
  const understood = !inTable && handledProgram(inv.name);
  if (inTable || !understood) {
    const found: RemoteEffect[] = [];
    remoteEffects({ name: inv.name, args: inv.args.map((a) => (known(a) ? a.value : undefined)), texts: () => inv.args.map((a) => a.text), span: inv.span }, understood, found);
    for (const e of found) r.sink.remoteEffect(e);
  }
  const text = result?.text ?? r.sink.commands[at]?.text;
  return { stdout: result?.stdout ?? { kind: "unknown", from: `the output of ${inv.name}` }, text };
}
void shown;

/**
 * The program a command word reaches, however it is spelled: no directory (`/usr/libexec/git-core/git`,
 * `C:\\Program Files\\Git\\cmd\\git.exe`), no Windows suffix (`git.exe`, `python3.11.exe`), and a
 * versioned name of a program the analysis knows (`psql-15`, `git-2.39`) is that program. Interpreters
 * keep their version (`python3.11`: interpreterFamily reads it); `mkfs.ext4` is its own program.
 */
export function programOf(word: string): string {
  let name = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1);
  const windows = /\.(exe|cmd|bat|com)$/i.exec(name);
  if (windows) name = name.slice(0, windows.index).toLowerCase();
  if (knownProgram(name)) return name;
  const versioned = /^(.+?)-?\d+(?:\.\d+)*$/.exec(name);
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
  return Object.prototype.hasOwnProperty.call(HANDLERS, name) || REMOTE_TABLE.has(name) || interpreterFamily(name) !== undefined;
}

/** Is `name` a program the analysis has a handler for (so it knows which words are its data)? */
export function handledProgram(name: string): boolean {
  // Table rows keep the generic reading of their words: not "understood" for pattern anchoring.
  if (Object.prototype.hasOwnProperty.call(EFFECT_TABLE, name) && HANDLERS[name] !== undefined && !BUILT_IN.has(name)) return false;
  return Object.prototype.hasOwnProperty.call(HANDLERS, name) || interpreterFamily(name) !== undefined;
}

/** The program names with a handler (for a command word that is itself a glob: `/usr/bin/r[m]`). */
export function handledPrograms(): string[] {
  return Object.keys(HANDLERS);
}
