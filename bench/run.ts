// npm run bench: figures and ratios against baselines measured side by side in the same run.
// Absolute times vary between machines; the ratios are what we compare. Prints a table and
// writes bench/results.json (every figure with its unit).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { decide } from "../src/engine/decide";
import { parseRules } from "../src/engine/rules/parse";
import type { Action } from "../src/engine/types";
import { CORPUS_CWD, CORPUS_HOME, corpusDir, loadCorpus } from "./lib/corpus";
import { brokenRules, generatedRules } from "./lib/generated";
import { summarize, timeEach } from "./lib/stats";
import { textualDecide } from "./lib/textual";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Promise<AutocannonResult>;
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  non2xx: number;
}

const root = path.resolve(__dirname, "../..");
const CLI = path.join(root, "dist/cli.js");
const quick = process.argv.includes("--quick");
type Figure = { value: number; unit: string };
const results: Record<string, Record<string, Figure | string>> = {};
const put = (section: string, key: string, value: number, unit: string) => ((results[section] ??= {})[key] = { value: round(value), unit });
const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : n);

function line(label: string, value: string) {
  console.log(`  ${label.padEnd(52)} ${value}`);
}

// ---------------------------------------------------------------------------------------------
function benchEngine(): void {
  console.log("\n1. Engine: decide() per call over the corpus");
  const dir = corpusDir(root);
  const cases = loadCorpus(path.join(dir, "commands.jsonl"));
  const reference = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8")).rules;
  const generated = parseRules(generatedRules(1000)).rules;
  const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
  const calls = cases.map((c) => ({ tool: c.tool, input: c.input }));
  const rounds = quick ? 5 : 30;
  // Warm up the JIT on every path before measuring.
  timeEach(calls, 3, (c) => decide(c, reference, ctx));
  timeEach(calls, 3, (c) => textualDecide(c, reference, ctx));
  const engine = summarize(timeEach(calls, rounds, (c) => decide(c, reference, ctx).action as Action));
  const textual = summarize(timeEach(calls, rounds, (c) => textualDecide(c, reference, ctx)));
  timeEach(calls, 2, (c) => decide(c, generated, ctx));
  const big = summarize(timeEach(calls, Math.max(3, rounds / 5), (c) => decide(c, generated, ctx)));
  line("engine, reference rules (36): median / p99", `${engine.median.toFixed(1)} µs / ${engine.p99.toFixed(1)} µs`);
  line("textual matcher, same rules: median / p99", `${textual.median.toFixed(1)} µs / ${textual.p99.toFixed(1)} µs`);
  line("engine, 1,000 generated rules: median / p99", `${big.median.toFixed(1)} µs / ${big.p99.toFixed(1)} µs`);
  line("ratio engine / textual (median)", `${(engine.median / textual.median).toFixed(1)}×`);
  put("engine", "decide_median_reference", engine.median, "µs");
  put("engine", "decide_p99_reference", engine.p99, "µs");
  put("engine", "textual_median_reference", textual.median, "µs");
  put("engine", "textual_p99_reference", textual.p99, "µs");
  put("engine", "decide_median_1000_rules", big.median, "µs");
  put("engine", "decide_p99_1000_rules", big.p99, "µs");
  put("engine", "ratio_engine_over_textual_median", engine.median / textual.median, "×");
}

// ---------------------------------------------------------------------------------------------
function benchRules(): void {
  console.log("\n4. Rules: parse + compile (+ diagnostics)");
  const dir = corpusDir(root);
  const reference = fs.readFileSync(path.join(dir, "rules.yaml"), "utf8");
  const thousand = generatedRules(1000);
  const broken = brokenRules(1000);
  const time = (text: string, runs: number) => {
    for (let i = 0; i < 3; i++) parseRules(text);
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = process.hrtime.bigint();
      parseRules(text);
      t.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    return summarize(t);
  };
  const ref = time(reference, quick ? 20 : 100);
  const big = time(thousand, quick ? 5 : 20);
  const diag = time(broken, quick ? 5 : 20);
  const nDiag = parseRules(broken).diagnostics.length;
  line("reference file (36 rules): median", `${ref.median.toFixed(2)} ms`);
  line("1,000 rules: median", `${big.median.toFixed(2)} ms`);
  line(`1,000 rules with errors (${nDiag} diagnostics): median`, `${diag.median.toFixed(2)} ms`);
  put("rules", "parse_reference_median", ref.median, "ms");
  put("rules", "parse_1000_rules_median", big.median, "ms");
  put("rules", "diagnostics_1000_rules_median", diag.median, "ms");
}

// ---------------------------------------------------------------------------------------------
/** A bare node:http server answering {} (the floor), in its own process like ours. */
const BARE_SERVER = `
const http = require("node:http");
const s = http.createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, {"content-type": "application/json", "content-length": 2}); res.end("{}"); }); });
s.listen(0, "127.0.0.1", () => console.log("listening http://127.0.0.1:" + s.address().port));
`;

async function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"], detached: true });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start`)), 15_000);
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", () => reject(new Error(`${args.join(" ")} exited`)));
  });
  return { child, url };
}

function stopProcess(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    /* gone */
  }
}

function payload(cwd: string, command = "npm run build") {
  return JSON.stringify({ session_id: "bench", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_bench" });
}

async function benchEndpoint(workspace: string, env: NodeJS.ProcessEnv, token: string): Promise<void> {
  console.log("\n2. Endpoint: PreToolUse requests/s and latency (autocannon), against a bare node:http server");
  const ours = await startProcess([CLI, "serve", "--cwd", workspace, "--port", "0"], env);
  const bare = await startProcess(["-e", BARE_SERVER], env);
  const body = payload(workspace);
  const duration = quick ? 2 : 5;
  try {
    for (const connections of [1, 10, 50]) {
      const run = (url: string, headers: Record<string, string>) =>
        autocannon({ url: `${url}/claude/hook`, method: "POST", body, headers: { "content-type": "application/json", ...headers }, connections, duration });
      const b = await run(bare.url, {});
      const o = await run(ours.url, { authorization: `Bearer ${token}` });
      if (o.non2xx || o.errors) throw new Error(`endpoint answered ${o.non2xx} non-2xx and ${o.errors} errors`);
      line(`${connections} client(s): ours req/s · p50 · p99`, `${o.requests.average.toFixed(0)} · ${o.latency.p50} ms · ${o.latency.p99} ms`);
      line(`${connections} client(s): bare req/s · p50 · p99`, `${b.requests.average.toFixed(0)} · ${b.latency.p50} ms · ${b.latency.p99} ms`);
      const ratio = o.latency.p50 > 0 && b.latency.p50 > 0 ? o.latency.p50 / b.latency.p50 : o.latency.average / b.latency.average;
      line(`${connections} client(s): overhead ours / bare (p50 latency)`, `${ratio.toFixed(2)}×  (throughput ${(b.requests.average / o.requests.average).toFixed(2)}×)`);
      put("endpoint", `c${connections}_rps`, o.requests.average, "req/s");
      put("endpoint", `c${connections}_p50`, o.latency.p50, "ms");
      put("endpoint", `c${connections}_p99`, o.latency.p99, "ms");
      put("endpoint", `c${connections}_bare_rps`, b.requests.average, "req/s");
      put("endpoint", `c${connections}_bare_p50`, b.latency.p50, "ms");
      put("endpoint", `c${connections}_bare_p99`, b.latency.p99, "ms");
      put("endpoint", `c${connections}_overhead_p50`, ratio, "×");
      put("endpoint", `c${connections}_mean_latency_ratio`, o.latency.average / b.latency.average, "×");
    }
  } finally {
    stopProcess(ours.child);
    stopProcess(bare.child);
  }
}

// ---------------------------------------------------------------------------------------------
function post(url: string, token: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/claude/hook`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function benchHookCost(workspace: string, env: NodeJS.ProcessEnv, token: string): Promise<void> {
  console.log("\n3. Hook cost end to end: 50 tool calls, one after another");
  const N = 50;
  const commands = Array.from({ length: N }, (_, i) => (i % 5 === 0 ? `rm -rf build-${i}` : `npm test -- --grep case${i}`));
  const ours = await startProcess([CLI, "serve", "--cwd", workspace, "--port", "0"], env);
  const shimEnv = { ...env, DAMAGE_CONTROL_URL: ours.url, DAMAGE_CONTROL_TOKEN: token };
  const timed = async (fn: (i: number) => unknown): Promise<number> => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < N; i++) await fn(i);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  try {
    await post(ours.url, token, payload(workspace)); // warm
    const httpMs = await timed((i) => post(ours.url, token, payload(workspace, commands[i])));
    const shimMs = await timed((i) => {
      const r = spawnSync(process.execPath, [CLI, "hook", "claude"], { input: payload(workspace, commands[i]), env: shimEnv, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`hook shim failed: ${r.stderr}`);
    });
    const bareMs = await timed(() => spawnSync(process.execPath, ["-e", ""], { env }));
    line("(a) HTTP endpoint: total · per call", `${httpMs.toFixed(0)} ms · ${(httpMs / N).toFixed(2)} ms`);
    line("(b) `damage-control hook claude` shim: total · per call", `${shimMs.toFixed(0)} ms · ${(shimMs / N).toFixed(2)} ms`);
    line('(c) bare `node -e ""`: total · per call', `${bareMs.toFixed(0)} ms · ${(bareMs / N).toFixed(2)} ms`);
    line("ratio shim / HTTP", `${(shimMs / httpMs).toFixed(1)}×`);
    line("ratio bare node / HTTP", `${(bareMs / httpMs).toFixed(1)}×`);
    put("hook_cost", "http_per_call", httpMs / N, "ms");
    put("hook_cost", "shim_per_call", shimMs / N, "ms");
    put("hook_cost", "bare_node_per_call", bareMs / N, "ms");
    put("hook_cost", "ratio_shim_over_http", shimMs / httpMs, "×");
    put("hook_cost", "ratio_bare_node_over_http", bareMs / httpMs, "×");
  } finally {
    stopProcess(ours.child);
  }
}

// ---------------------------------------------------------------------------------------------
function benchExtension(): void {
  console.log("\n5. Extension: bundle sizes and activation");
  for (const f of ["extension.js", "cli.js", "pi-extension.js"]) {
    const size = fs.statSync(path.join(root, "dist", f)).size;
    line(`dist/${f}`, `${(size / 1024).toFixed(1)} KB`);
    put("extension", `bundle_${f.replace(/\W/g, "_")}`, size / 1024, "KB");
  }
  const activation = path.join(root, "test-results", "activation.json");
  if (fs.existsSync(activation)) {
    const a = JSON.parse(fs.readFileSync(activation, "utf8")) as { activateMs: number; readyMs?: number; measuredAt: string };
    line("activation in the real VS Code test host (activate())", `${a.activateMs.toFixed(1)} ms (measured ${a.measuredAt})`);
    put("extension", "activation", a.activateMs, "ms");
    if (a.readyMs !== undefined) {
      line("activation until the endpoint listens", `${a.readyMs.toFixed(1)} ms`);
      put("extension", "activation_until_endpoint", a.readyMs, "ms");
    }
  } else {
    line("activation", "not measured: run `npm test -- vscode` first (it writes test-results/activation.json)");
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  results.machine = { cpus: `${cpus.length} × ${cpus[0]?.model ?? "?"}`, memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`, node: process.version, platform: `${os.platform()} ${os.release()}`, date: new Date().toISOString() };
  console.log(`Damage Control benchmarks — ${results.machine.cpus}, ${results.machine.memory}, Node ${process.version}${quick ? " (quick)" : ""}`);
  benchEngine();
  benchRules();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-bench-"));
  const workspace = path.join(tmp, "ws");
  fs.mkdirSync(workspace);
  const env: NodeJS.ProcessEnv = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state") };
  delete env.HTTP_PROXY;
  delete env.HTTPS_PROXY;
  delete env.http_proxy;
  delete env.https_proxy;
  // Get the token by starting the CLI's state once.
  const probe = await startProcess([CLI, "serve", "--cwd", workspace, "--port", "0"], env);
  stopProcess(probe.child);
  const token = fs.readFileSync(path.join(tmp, "state", "token"), "utf8").trim();
  try {
    await benchEndpoint(workspace, env, token);
    await benchHookCost(workspace, env, token);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  benchExtension();
  const out = path.join(root, "bench", "results.json");
  fs.writeFileSync(out, JSON.stringify(results, null, 2) + "\n");
  console.log(`\nwrote ${path.relative(root, out)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
