// Runs an agent CLI in its own process group with a deadline. Agents start tool subprocesses
// (a Bash tool's shell, a `sleep` the model asked for); killing only the agent's pid would leave
// those running, so every stop signal goes to the whole group (kill(-pid)). Nothing is ever
// killed by name.
import { spawn, type ChildProcess } from "node:child_process";

export interface GroupRunOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Sent to the group in order when the deadline passes, `stopStepMs` apart. Default SIGKILL. */
  stopSignals?: NodeJS.Signals[];
  stopStepMs?: number;
  /** "pipe" keeps stdin open for a protocol (pi RPC); "ignore" gives the child EOF at once. */
  stdin?: "ignore" | "pipe";
  /** Called once the child is running (e.g. to write the first protocol record to stdin). */
  onSpawn?: (child: ChildProcess) => void;
  /** Called with each complete stdout record, split on LF only (JSON strings may hold U+2028). */
  onStdoutLine?: (line: string, child: ChildProcess) => void;
}

export interface GroupRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

/** Groups still alive, killed if the test process exits early (crash, Ctrl-C in mocha). */
const liveGroups = new Set<number>();
process.on("exit", () => {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
});

/** With DC_E2E_VERBOSE=1, one stderr line per agent run (timings for reports and debugging). */
export function logRun(label: string, r: GroupRunResult): void {
  if (process.env.DC_E2E_VERBOSE === "1") {
    process.stderr.write(`      [e2e] ${label}: exit ${r.exitCode ?? r.signal}${r.timedOut ? " (timed out)" : ""} in ${r.durationMs} ms\n`);
  }
}

/** Signal a process group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw e;
  }
}

export function runInGroup(opts: GroupRunOptions): Promise<GroupRunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true, // new process group, pgid = child.pid
      stdio: [opts.stdin ?? "ignore", "pipe", "pipe"],
    });
    const pgid = child.pid;
    if (pgid === undefined) {
      child.once("error", reject);
      return;
    }
    liveGroups.add(pgid);
    let stdout = "";
    let stderr = "";
    let pending = "";
    let timedOut = false;
    const timers: NodeJS.Timeout[] = [];
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!opts.onStdoutLine) return;
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl).replace(/\r$/, "");
        pending = pending.slice(nl + 1);
        if (line.trim()) opts.onStdoutLine(line, child);
      }
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // An EPIPE on stdin after the child exited is expected; it must not crash the test run.
    child.stdin?.on("error", () => undefined);
    opts.onSpawn?.(child);

    const signals = opts.stopSignals?.length ? opts.stopSignals : (["SIGKILL"] as NodeJS.Signals[]);
    const step = opts.stopStepMs ?? 1000;
    timers.push(
      setTimeout(() => {
        timedOut = true;
        signals.forEach((sig, i) => timers.push(setTimeout(() => signalGroup(pgid, sig), i * step)));
      }, opts.timeoutMs),
    );
    // After the agent exits, whatever it left in its group (background tool processes) is
    // killed too; stdout then closes even if a grandchild held the pipe.
    child.once("exit", () => signalGroup(pgid, "SIGKILL"));
    child.once("close", (code, signal) => {
      for (const t of timers) clearTimeout(t);
      signalGroup(pgid, "SIGKILL");
      liveGroups.delete(pgid);
      resolve({ exitCode: code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
    });
    child.once("error", (e) => {
      for (const t of timers) clearTimeout(t);
      liveGroups.delete(pgid);
      reject(e);
    });
  });
}
