// Paced A/B of the endpoint (bench/lib/paced.ts: one request at a time, each server in turn, 45 ms
// apart per server, each its own call), with a bare node:http server answering {} in the same turns:
//   node dist/bench/endpoint-paced.js [--requests=270] before=DIR after=dist
// (DIR: a dist folder built before the change, `node esbuild.js --production`). Two copies of one
// build agree within 20 µs here, where autocannon's runs differ by ±15 %.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pacedRoundTrips, PERIOD_MS, type PacedTarget } from "./lib/paced";
import { BARE_SERVER, startServer, stopServer } from "./lib/servers";
import { trimmedMean } from "./lib/stats";

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const requests = Number(arg("requests", "270"));

const children: ChildProcess[] = [];

async function start(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { child, url } = await startServer(args, env);
  children.push(child);
  return url;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];

async function main(): Promise<void> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-paced-")));
  process.on("exit", () => {
    for (const c of children) stopServer(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const targets: PacedTarget[] = [{ label: "bare", url: await start(["-e", BARE_SERVER], process.env), token: "", workspace: tmp }];
  for (const a of process.argv.slice(2).filter((x) => !x.startsWith("--"))) {
    const [label, dist] = a.split("=");
    const workspace = path.join(tmp, label);
    const state = path.join(tmp, `${label}-state`);
    fs.mkdirSync(workspace);
    const url = await start([path.join(path.resolve(dist), "cli.js"), "serve", "--cwd", workspace, "--port", "0"], { ...process.env, DAMAGE_CONTROL_STATE_DIR: state });
    targets.push({ label, url, token: fs.readFileSync(path.join(state, "token"), "utf8").trim(), workspace });
  }
  const times = await pacedRoundTrips(targets, requests);
  const bare = trimmedMean(times.bare, 0.05);
  console.log(`${requests} requests each, one every ${PERIOD_MS} ms per server [load ${os.loadavg()[0].toFixed(1)}]; round trip in µs:`);
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
