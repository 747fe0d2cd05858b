// The product's own program, recognised by what it is (issue 35): a file holding PRODUCT_MARK —
// any copy of the bundle under any name (`node /tmp/x/tool.js serve`), the extension folder's
// dist/cli.js, a symlink to one, the command-hook launcher, `damage-control` found on PATH.
// An agent's call that runs it with a verb that changes the guard or its records is refused,
// and so is a signal to the process of an endpoint in the registry.
import * as fs from "node:fs";
import * as path from "node:path";
import { blockReason } from "../engine/reason";
import { analyzeCommand } from "../engine/shell/analyze";
import { PRODUCT_MARK, SIGNAL_PROGRAMS } from "../engine/self/table";
import { programOf, refusedVerb } from "../engine/self/verbs";
import type { Judgement } from "../engine/judge";
import type { WireRequest } from "../engine/agents/types";
import type { Verdict } from "../engine/types";
import { liveEndpointPids } from "./registry";
import { userStateDir } from "./state-dir";

/** A program file bigger than this is not read for the mark (the bundle is a few MB). */
const MAX_PROGRAM_BYTES = 64 * 1024 * 1024;
const known = new Map<string, { stamp: string; product: boolean }>();
/** Programs that find a process's pid by name or command line (read like pkill and killall). */
const PID_LOOKUPS = ["pgrep", "pidof"];
/** What every earlier bundle of the CLI holds (an older copy switches the guard off as well). */
const LEGACY_MARKS = ["Usage: damage-control serve", "DAMAGE_CONTROL_STATE_DIR"];

export interface SelfContext {
  cwd: string;
  home: string;
  /** The PATH a bare program name is looked up in (default: this process's). */
  path?: string;
  /** The state folder whose registry names the live endpoints (default: the user's). */
  stateDir?: string;
}

/** Words without which a command cannot run the product against the guard nor signal a process. */
const SELF_WORDS = /\b(serve|install|uninstall|exceptions|snapshots|restore|endpoint|kill|pkill|killall|skill)\b/;

/**
 * A judgement with the product's own program taken into account: a bash call that runs it against
 * the guard (serve, install, exceptions…) or signals an endpoint's process is refused whatever the
 * rules say. Every judgement goes through it where it is made (decider-worker.ts judgeHere, the
 * in-process decider): the endpoint, the command hooks, the pi extension, `check`.
 */
export function withSelfProtection(judgement: Judgement, req: WireRequest, ctx: SelfContext): Judgement {
  if (req.event !== "PreToolUse" || (judgement.kind === "verdict" && judgement.verdict.action === "block")) return judgement;
  const input = req.call?.input as { command?: unknown } | null | undefined;
  const command = req.call?.tool.toLowerCase() === "bash" && typeof input?.command === "string" ? input.command : undefined;
  if (!command || !SELF_WORDS.test(command)) return judgement;
  const verdict = selfProgramVerdict(command, ctx);
  if (!verdict) return judgement;
  return { kind: "verdict", verdict, tool: req.call?.tool ?? "Bash", target: command.length > 2000 ? command.slice(0, 2000) + "…" : command };
}

/** The refusal of a command that runs the product against the guard or signals its endpoint. */
export function selfProgramVerdict(command: string, ctx: SelfContext): Verdict | undefined {
  let analysis;
  try {
    analysis = analyzeCommand(command, { cwd: ctx.cwd, home: ctx.home });
  } catch {
    return undefined;
  }
  // `kill $(pgrep -f 'cli.js serve')`: a process lookup that finds an endpoint, in a line that signals.
  const signals = analysis.commands.some((c) => SIGNAL_PROGRAMS.includes(c.text.split(" ")[0]));
  for (const c of analysis.commands) {
    const words = wordsOf(command, c.text, c.span);
    const lookup = signals && PID_LOOKUPS.includes(words[0]) ? signalsEndpoint([words[0] === "pidof" ? "killall" : "pkill", ...words.slice(1)], ctx) : undefined;
    const signal = lookup ?? signalsEndpoint(words, ctx);
    const signalled = signal !== undefined;
    const why = signal ?? productVerb(words, ctx);
    if (why) {
      const rule = signalled ? { id: "guard-signal-endpoint", text: "a signal to an endpoint's process" } : { id: "guard-self-program", text: "the product's own program" };
      return { action: "block", reason: blockReason(why), rule: { kind: "bashPattern", ...rule, reason: why, layer: "default" }, match: { ...c.span, text: command.slice(c.span.start, c.span.end) } };
    }
  }
  return undefined;
}

/** Is this file (followed through symlinks) a copy of the product? Cached by inode and mtime. */
export function isProductFile(file: string): boolean {
  let real: string;
  let st: fs.Stats;
  try {
    real = fs.realpathSync(file);
    st = fs.statSync(real);
  } catch {
    return false;
  }
  if (!st.isFile() || st.size > MAX_PROGRAM_BYTES) return false;
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const hit = known.get(real);
  if (hit?.stamp === stamp) return hit.product;
  let product = false;
  try {
    const text = fs.readFileSync(real, "latin1");
    // Builds from before the mark are the product too: they carry serve's usage line and the state variable.
    product = text.includes(PRODUCT_MARK) || LEGACY_MARKS.every((m) => text.includes(m));
  } catch {
    /* unreadable: not something the agent can run either */
  }
  if (known.size > 256) known.clear();
  known.set(real, { stamp, product });
  return product;
}

function productVerb(words: string[], ctx: SelfContext): string | undefined {
  const p = programOf(words);
  if (!p) return undefined;
  const why = refusedVerb(p.args);
  if (!why) return undefined;
  const file = resolveProgram(p.program, ctx, p.script);
  if (file && isProductFile(file)) return `${why} (${p.program} is Damage Control's own program)`;
  // A program file that is not there yet may be a copy the same command line makes
  // (`cp …/cli.js /tmp/t.js && node /tmp/t.js serve`): what it is cannot be known, so it is refused.
  if (file && (p.script || p.program.includes("/")) && !fs.existsSync(file)) return `${why} (${p.program} does not exist yet, so it cannot be told apart from a copy of Damage Control's own program)`;
  return undefined;
}

/** `kill PID`, `pkill -f PATTERN`, `killall NAME` reaching the process of a live endpoint. */
function signalsEndpoint(words: string[], ctx: SelfContext): string | undefined {
  const name = path.basename(words[0] ?? "");
  if (!SIGNAL_PROGRAMS.includes(name)) return undefined;
  const pids = liveEndpointPids(ctx.stateDir ?? userStateDir());
  if (pids.length === 0) return undefined;
  const operands = words.slice(1).filter((w) => !/^-(\d+|[A-Z]+|s|n|-signal(=.*)?)$/.test(w) && !/^(SIG)?[A-Z]+\d*$/.test(w));
  const why = "signalling the Damage Control endpoint's process switches the guard off for this folder (ask the user to stop it)";
  if (name === "kill") return operands.some((w) => pids.includes(Math.abs(Number(w)))) ? why : undefined;
  if (name === "fuser") return undefined;
  const full = words.includes("-f") || words.some((w) => /^-[a-zA-Z]*f/.test(w) && name === "pkill");
  const patterns = operands.filter((w) => !w.startsWith("-"));
  for (const pid of pids) {
    const argv = cmdlineOf(pid);
    const hay = full ? argv.join(" ") : path.basename(argv[0] ?? "");
    if (patterns.some((pat) => matches(pat, hay, name === "killall" && !full))) return why;
  }
  return undefined;
}

function matches(pattern: string, text: string, exact: boolean): boolean {
  if (exact) return pattern === text;
  try {
    return new RegExp(pattern).test(text);
  } catch {
    return text.includes(pattern);
  }
}

function cmdlineOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The words of one executed command: the analysis spells the program without its folder, so the
 * program word is taken back from the command line as written (`./dist/cli.js`, `~/bin/x`).
 */
function wordsOf(command: string, text: string, span: { start: number; end: number }): string[] {
  const words = text.split(" ").filter(Boolean);
  const raw = command.slice(span.start, span.end).trim().split(/\s+/);
  const written = raw.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))?.replace(/^['"]|['"]$/g, "");
  if (written && words.length && path.basename(written) === words[0]) words[0] = written;
  return words;
}

/** Where a program word leads: a path (relative to the cwd, `~` to home), else the PATH's hit. */
function resolveProgram(word: string, ctx: SelfContext, script: boolean): string | undefined {
  const w = word.startsWith("~/") ? path.join(ctx.home, word.slice(2)) : word;
  if (w.includes("/") || script) return path.resolve(ctx.cwd, w);
  for (const dir of (ctx.path ?? process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, w);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}
