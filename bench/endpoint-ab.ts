// Interleaved A/B of the endpoint section: a bare node:http server and `damage-control serve` from
// one or more built dist folders, measured in turns (the order rotates each round) in the same
// minutes, with each thread's CPU time per request from /proc (schedstat), which a loaded machine
// disturbs much less than wall time. For comparing a change against the tree before it:
//   cp -r dist /tmp/dist-before   (built before the change, `node esbuild.js --production`)
//   node dist/bench/endpoint-ab.js --rounds=4 --duration=3 before=/tmp/dist-before after=dist
// Same request as bench/run.ts's endpoint section (a PreToolUse Bash call, 1 and 10 clients).
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BARE_SERVER, startServer, stopServer } from "./lib/servers";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Promise<{ requests: { average: number; total: number }; errors: number; non2xx: number }>;

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const rounds = Number(arg("rounds", "4"));
const duration = Number(arg("duration", "3"));
const conns = arg("conns", "1,10").split(",").map(Number);
const variants = process.argv.slice(2).filter((a) => !a.startsWith("--")).map((a) => ({ label: a.split("=")[0], dist: path.resolve(a.split("=")[1]) }));

interface Target {
  label: string;
  url: string;
  pid: number;
  workspace?: string;
  headers: Record<string, string>;
}
const children: ChildProcess[] = [];

async function start(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number }> {
  const { child, url } = await startServer(args, env);
  children.push(child);
  return { url, pid: child.pid! };
}

/** ns on CPU per thread ("main" for the process's main thread, else the thread's name). */
function cpuByThread(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = Number(tid) === pid ? "main" : fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      out[name] = (out[name] ?? 0) + Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-ab-")));
  process.on("exit", () => {
    for (const c of children) stopServer(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const bare = await start(["-e", BARE_SERVER], process.env);
  const targets: Target[] = [{ label: "bare", ...bare, headers: {} }];
  for (const v of variants) {
    const workspace = path.join(tmp, v.label);
    const state = path.join(tmp, `${v.label}-state`);
    fs.mkdirSync(workspace);
    const started = await start([path.join(v.dist, "cli.js"), "serve", "--cwd", workspace, "--port", "0"], { ...process.env, DAMAGE_CONTROL_STATE_DIR: state });
    targets.push({ label: v.label, ...started, workspace, headers: { authorization: `Bearer ${fs.readFileSync(path.join(state, "token"), "utf8").trim()}` } });
  }
  const run = (t: Target, connections: number) =>
    autocannon({
      url: `${t.url}/claude/hook`,
      method: "POST",
      body: JSON.stringify({ session_id: "bench", cwd: t.workspace ?? tmp, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm run build" }, tool_use_id: "toolu_bench" }),
      headers: { "content-type": "application/json", ...t.headers },
      connections,
      duration,
    });
  const us: Record<string, number[]> = {};
  const cpu: Record<string, Record<string, number[]>> = {};
  for (const t of targets) for (const c of conns) await run(t, c); // warm-up: JIT, worker
  for (let r = 0; r < rounds; r++) {
    for (const c of conns) {
      const order = [...targets.slice(r % targets.length), ...targets.slice(0, r % targets.length)];
      const row: Record<string, number> = {};
      for (const t of order) {
        const before = cpuByThread(t.pid);
        const o = await run(t, c);
        const after = cpuByThread(t.pid);
        if (o.non2xx || o.errors) throw new Error(`${t.label}: ${o.non2xx} non-2xx, ${o.errors} errors`);
        row[t.label] = (c * 1e6) / o.requests.average;
        (us[`${t.label}@${c}`] ??= []).push(row[t.label]);
        for (const [thread, ns] of Object.entries(after)) ((cpu[`${t.label}@${c}`] ??= {})[thread] ??= []).push((ns - (before[thread] ?? 0)) / o.requests.total / 1e3);
      }
      console.log(`round ${r} c${c} [load ${os.loadavg()[0].toFixed(1)}]: ${targets.map((t) => `${t.label} ${row[t.label].toFixed(0)} µs${t.label === "bare" ? "" : ` (${(row[t.label] / row.bare).toFixed(2)}×)`}`).join("  ")}`);
    }
  }
  for (const c of conns) {
    const b = median(us[`bare@${c}`]);
    console.log(`median, ${c} client(s): ${targets.map((t) => `${t.label} ${median(us[`${t.label}@${c}`]).toFixed(0)} µs${t.label === "bare" ? "" : ` (${(median(us[`${t.label}@${c}`]) / b).toFixed(2)}× bare)`}`).join("  ")}`);
    for (const t of targets) {
      const threads = Object.entries(cpu[`${t.label}@${c}`]).map(([name, xs]) => [name, median(xs)] as const).filter(([, v]) => v >= 0.5);
      console.log(`  CPU µs per request, ${t.label}: ${threads.map(([name, v]) => `${name} ${v.toFixed(1)}`).join(", ")}`);
    }
  }
}

main()
  .then(() => process.exit(0))
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
