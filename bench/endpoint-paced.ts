// Paced A/B of the endpoint, the way an agent's hooks call it: one request at a time, each server
// in turn, about 45 ms between two requests to the same server (Claude Code's calls come every few
// tens of milliseconds), each request a call of its own (its own command and tool-call id). What
// this measures is the cost of a request on an endpoint left idle in between, whose code and data
// are out of the CPU's caches by then: the figure the HTTP hook's time inside Claude Code follows,
// without the agent's own noise. A bare node:http server answering {} is measured in the same turns.
//   node dist/bench/endpoint-paced.js [--requests=300] before=DIR after=dist
// (DIR: a dist folder built before the change, `node esbuild.js --production`). Two copies of one
// build agree within a few µs here, where autocannon's runs differ by ±15 %.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { BARE_SERVER, startServer, stopServer } from "./lib/servers";
import { trimmedMean } from "./lib/stats";

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const requests = Number(arg("requests", "300"));
/** The first requests of each server are left out: its JIT and the client's are still warming. */
const WARM_UP = 30;
/** Between two requests to the same server. */
const PERIOD_MS = 45;

interface Target {
  label: string;
  url: string;
  token: string;
  workspace: string;
}

const children: ChildProcess[] = [];

async function start(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { child, url } = await startServer(args, env);
  children.push(child);
  return url;
}

/** One round trip in µs: request sent → answer read, over a kept-alive connection. */
function post(agent: http.Agent, t: Target, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(`${t.url}/hook/claude`, { method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${t.token}`, "content-length": Buffer.byteLength(body) } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${t.label} answered HTTP ${res.statusCode}`));
      res.resume();
      res.on("end", () => resolve(Number(process.hrtime.bigint() - started) / 1e3));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];

async function main(): Promise<void> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-paced-")));
  process.on("exit", () => {
    for (const c of children) stopServer(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const targets: Target[] = [{ label: "bare", url: await start(["-e", BARE_SERVER], process.env), token: "", workspace: tmp }];
  for (const a of process.argv.slice(2).filter((x) => !x.startsWith("--"))) {
    const [label, dist] = a.split("=");
    const workspace = path.join(tmp, label);
    const state = path.join(tmp, `${label}-state`);
    fs.mkdirSync(workspace);
    const url = await start([path.join(path.resolve(dist), "cli.js"), "serve", "--cwd", workspace, "--port", "0"], { ...process.env, DAMAGE_CONTROL_STATE_DIR: state });
    targets.push({ label, url, token: fs.readFileSync(path.join(state, "token"), "utf8").trim(), workspace });
  }
  const agent = new http.Agent({ keepAlive: true });
  const times: Record<string, number[]> = {};
  const gap = Math.round(PERIOD_MS / targets.length);
  for (let i = 0; i < requests; i++) {
    // The order rotates, so no server always follows the same one.
    for (const t of [...targets.slice(i % targets.length), ...targets.slice(0, i % targets.length)]) {
      const body = JSON.stringify({ session_id: "paced", transcript_path: "/tmp/paced.jsonl", cwd: t.workspace, permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `echo step-${i} > /dev/null`, description: "a step" }, tool_use_id: `toolu_${i}` });
      const us = await post(agent, t, body);
      if (i >= WARM_UP) (times[t.label] ??= []).push(us);
      await new Promise((r) => setTimeout(r, gap));
    }
  }
  const bare = trimmedMean(times.bare, 0.05);
  console.log(`${requests - WARM_UP} requests each, one every ${PERIOD_MS} ms per server [load ${os.loadavg()[0].toFixed(1)}]; round trip in µs:`);
  for (const t of targets) {
    const xs = times[t.label];
    const m = trimmedMean(xs, 0.05);
    console.log(`  ${t.label.padEnd(10)} trimmed mean ${m.toFixed(0)} (median ${quantile(xs, 0.5).toFixed(0)}, p10 ${quantile(xs, 0.1).toFixed(0)}, p90 ${quantile(xs, 0.9).toFixed(0)})${t.label === "bare" ? "" : `  over bare ${(m - bare).toFixed(0)}`}`);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
