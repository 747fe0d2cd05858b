// Programs that read their commands on standard input, one per line (issue 36, families 4 and 8):
// `echo FLUSHALL | redis-cli -h cache`, `printf 'delete refs/heads/x\n' | git update-ref --stdin`.
// Each line known before the command runs (a pipe from echo/printf, a here-document, a
// here-string) is judged as the same program given that line as its words, as the SQL clients'
// statements are (sql.ts). DATA: program → when its stdin is a command stream, and how a line
// becomes an argv.
import { parseOptions, type OptionSpec } from "../options";
import type { Invocation, Runner } from "../runner";
import { known, syntheticArg, type Arg } from "../words";

interface StreamClient {
  /** The invocation reads commands on stdin (no command among its own words). */
  reads(inv: Invocation): boolean;
  /** The argv (program word first) one line amounts to, or undefined for a line that changes nothing. */
  argv(inv: Invocation, words: readonly string[]): string[] | undefined;
}

/** redis-cli's options that take a value; any other word is a command (then stdin is not read as commands). */
const REDIS: OptionSpec = { shortWithValue: "hpsaunirdD", longWithValue: ["user", "pass", "cacert", "cacertdir", "cert", "key", "tls-ciphers", "tls-ciphersuites", "sni", "eval", "pattern", "count", "quoted-pattern", "memkeys-samples", "functions-rdb", "replica-id", "cluster"] };

/** A key-value store's shell: each line is a command with the connection options of the invocation. */
const keyValueShell: StreamClient = {
  reads: (inv) => {
    const p = parseOptions(inv.args, REDIS);
    // `-x` reads the last argument from stdin, `--pipe` raw protocol, `--eval` a script: not command lines.
    return p.operands.length === 0 && !p.options.some((o) => /^(x|pipe|eval|scan|bigkeys|memkeys|hotkeys|stat|latency)$/.test(o.name));
  },
  argv: (inv, words) => [inv.name, ...inv.args.map((a) => a.value ?? ""), ...words],
};

/** `git update-ref --stdin`: `delete REF [OLD]` deletes a ref, `update REF NEW [OLD]` moves it. */
const updateRefStdin: StreamClient = {
  reads: (inv) => {
    const v = inv.args.map((a) => a.value);
    const sub = v.findIndex((x) => x !== undefined && !x.startsWith("-"));
    return sub >= 0 && v[sub] === "update-ref" && v.slice(sub + 1).includes("--stdin") && !v.includes("-z");
  },
  argv: (_inv, [verb, ref, next]) => {
    if (verb === "delete" && ref) return ["git", "update-ref", "-d", ref];
    if (verb === "update" && ref && next) return ["git", "update-ref", ref, next];
    return undefined;
  },
};

const STREAM_CLIENTS: Record<string, StreamClient> = {
  "redis-cli": keyValueShell,
  "valkey-cli": keyValueShell,
  "keydb-cli": keyValueShell,
  git: updateRefStdin,
};

/** Judges the commands a program reads on stdin as the same program run with each line. */
export function streamedCommands(inv: Invocation, r: Runner): void {
  const client = Object.prototype.hasOwnProperty.call(STREAM_CLIENTS, inv.name) ? STREAM_CLIENTS[inv.name] : undefined;
  if (!client || inv.stdin.kind !== "text" || inv.args.some((a) => !known(a)) || !client.reads(inv)) return;
  for (const line of inv.stdin.code.text.split(/\r?\n/)) {
    const words = line.trim().split(/\s+/).filter((w) => w !== "");
    if (words.length === 0) continue;
    const argv = client.argv(inv, words);
    if (argv === undefined) continue;
    const args: Arg[] = argv.map((w) => syntheticArg(w, inv.span));
    r.run(args, inv.scope.child(), { kind: "none" }, inv.span, inv.depth + 1);
  }
}
