// Which asks the kernel sandbox answers by itself (issue 34 §6). A shell call that will certainly
// run inside our sandbox needs no question about a file effect the kernel enforces whatever the
// command does at run time:
//   - a read whose target is known only at run time (`cat "$f"`, an inline script's `open(name)`):
//     every zero-access path is unreadable inside (EACCES), so it cannot read a secret;
//   - a write whose target is known only at run time: also every read-only path unwritable inside
//     (EROFS), and none left writable for the tools (`sandbox.updatedByTools`: lock files the hook
//     alone keeps the agent's own edits off);
//   - a formatter that may rewrite files of its kinds inside a read-only folder: that folder is
//     unwritable inside, the formatter's write there fails.
// Everything else stays as it is: deletes (no-delete has no kernel form), programs or code only
// known at run time (they may do anything: the network, a remote service, git history), any
// command line that runs a program talking to another host or git (reachesAnotherHost), the bash
// patterns (git, databases, system), parse errors, and every refusal (a block the model is told
// about stays a block). Pure: what the sandbox enforces comes
// in as data (KernelReach), made by the core from the policy the call will run under.
import { decideAnalysis } from "../decide";
import { NETWORK_SINKS } from "../remote/network";
import { REMOTE_TABLE } from "../remote/table";
import { interpreterFamily } from "../shell/programs/interpreters";
import { SQL_CLIENTS } from "../shell/programs/sql";
import type { CommandAnalysis, Uncertainty } from "../shell/types";
import type { DecideContext, RuleSet, Verdict } from "../types";
import type { KernelReach } from "./kernel-reach";

export type { KernelReach } from "./kernel-reach";


/**
 * Reads whose file is code the program runs: a file named at run time is code known only at run
 * time (it may do anything), whatever the kernel does to the paths it touches. By the `via` the
 * analysis gives the read (src/engine/shell/programs/: shells' `source` and `.`, awk's and sed's
 * program files — GNU sed's `e` runs commands).
 */
const CODE_FROM_FILE: ReadonlySet<string> = new Set(["source", ".", "awk -f", "sed -f"]);

/** A raw socket's path (`> /dev/tcp/HOST/PORT`). */
const SOCKET_PATH = /^\/dev\/(tcp|udp)\//;

/**
 * Never relaxed: a command line that runs a program talking to another host (the network sinks,
 * the remote services' and data stores' clients, git, the SQL clients) or writes to a raw socket.
 * Inside, the kernel sees a connection to a host, not what goes through it: a file read at run
 * time and sent (`cat "$F" | curl -d @- …`); and what a SQL client reads is SQL it runs, code
 * known only at run time (`psql -f "$F"`, `sqlite3 db < "$F"`).
 */
function reachesAnotherHost(analysis: CommandAnalysis): boolean {
  if (analysis.remote.length > 0 || analysis.effects.some((e) => SOCKET_PATH.test(e.path))) return true;
  return analysis.commands.some((c) => {
    const program = c.text.slice(0, c.text.indexOf(" ") >>> 0);
    // An interpreter is in the remote table only for a framework's verbs (`python3 manage.py migrate
    // APP zero`), judged by the remote effects above; its own network calls are its code's, read by
    // the inline analysis.
    return Object.hasOwn(NETWORK_SINKS, program) || (REMOTE_TABLE.has(program) && interpreterFamily(program) === undefined) || SQL_CLIENTS.has(program);
  });
}

/** A command (unwrapped: `sudo X`, `env X`, `bash -c 'X'` each count X too) whose program runs outside the sandbox. */
function runsOutside(analysis: CommandAnalysis, reach: KernelReach): boolean {
  const outside = reach.outside;
  return outside !== undefined && outside.length > 0 && analysis.commands.some((c) => outside.includes(c.text.split(" ", 1)[0]!));
}

const withoutCache = new WeakMap<RuleSet, Map<string, RuleSet>>();

/** The rules less the read-only entries the kernel enforces (one object per reach, so the decider's caches hold). */
function rulesWithout(rules: RuleSet, readOnly: readonly string[]): RuleSet {
  let byKey = withoutCache.get(rules);
  if (!byKey) withoutCache.set(rules, (byKey = new Map()));
  const key = readOnly.join("\0");
  let r = byKey.get(key);
  if (!r) {
    const gone = new Set(readOnly);
    if (byKey.size >= 16) byKey.clear();
    byKey.set(key, (r = { ...rules, readOnlyPaths: rules.readOnlyPaths.filter((e) => !gone.has(e.path)) }));
  }
  return r;
}

/**
 * The answer a shell call asked about gets when it runs in the kernel sandbox: what the kernel
 * enforces is taken out of what was found (the run-time targets of reads and writes it covers,
 * the read-only entries it keeps unwritable) and the rest judged again, by the same rules. Returns
 * what the kernel answers instead of the user (for the record) when nothing else was to be asked;
 * undefined when the call still needs the question.
 */
export function kernelAnswers(verdict: Verdict, command: string, analysis: CommandAnalysis, rules: RuleSet, ctx: DecideContext, reach: KernelReach): string | undefined {
  if (verdict.action !== "ask" || reachesAnotherHost(analysis) || runsOutside(analysis, reach)) return undefined;
  const answered = (u: Uncertainty) => !(u.via !== undefined && CODE_FROM_FILE.has(u.via)) && ((u.target === "read" && reach.reads) || (u.target === "write" && reach.writes));
  const uncertain = analysis.uncertain.filter((u) => !answered(u));
  // A command line that deletes keeps every read-only entry in the judging: what it deletes
  // (and whether it is only regenerable output) is the hook's to weigh, not the kernel's.
  const readOnly = analysis.effects.some((e) => e.access === "delete") ? [] : reach.readOnly;
  if (uncertain.length === analysis.uncertain.length && readOnly.length === 0) return undefined;
  const again = decideAnalysis(command, { ...analysis, uncertain }, rulesWithout(rules, readOnly), ctx);
  if (again.action !== "allow") return undefined;
  return verdict.reason;
}
