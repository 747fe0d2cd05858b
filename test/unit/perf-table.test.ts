// scripts/perf-table.js renders docs/performance.md's tables from a results file: every
// figure comes from the file, targets are judged from the figures, the page outside the
// markers is left alone. No timing is measured here.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./support";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const perf = require(path.join(repoRoot, "scripts/perf-table.js")) as {
  renderTables(r: unknown): string;
  updatePage(page: string, r: unknown): string;
  PAGE: string;
  START: string;
  END: string;
};

const f = (value: number, unit: string) => ({ value, unit });
const sample = {
  machine: { cpus: "2 × Test CPU", memory: "8 GiB", node: "v20.0.0", date: "2026-12-01T09:00:00.000Z", load_start: "1.00, 1.00, 1.00", load_end: "2.00, 2.00, 2.00" },
  engine: { decide_median_reference: f(12.5, "µs"), decide_p99_reference: f(150, "µs"), textual_median_reference: f(1.5, "µs"), textual_p99_reference: f(20, "µs"), decide_median_1000_rules: f(80, "µs"), decide_p99_1000_rules: f(400, "µs") },
  rules: { parse_reference_median: f(0.8, "ms"), parse_1000_rules_median: f(18, "ms"), diagnostics_1000_rules_median: f(21, "ms") },
  endpoint: { c1_request_us: f(180, "µs"), c1_rps: f(5555, "req/s"), c1_bare_request_us: f(100, "µs"), c1_bare_rps: f(10000, "req/s"), c1_overhead: f(1.8, "×"), c10_request_us: f(400, "µs"), c10_rps: f(25000, "req/s"), c10_bare_request_us: f(100, "µs"), c10_bare_rps: f(100000, "req/s"), c10_overhead: f(4, "×") },
  hook_cost: { http_per_call: f(2.5, "ms"), command_hook_per_call: f(150, "ms"), cc_safety_net_per_call: f(300, "ms"), bare_node_per_call: f(100, "ms"), command_hook_program: "Node shim (test)" },
  memory: { bare_server_rss: f(40, "MB"), endpoint_rss_start: f(70, "MB"), endpoint_rss_after_10k: f(90, "MB"), endpoint_rss_after_20k: f(91, "MB"), endpoint_rss_after_30k: f(91.5, "MB"), growth_10k_to_20k: f(1, "MB"), growth_20k_to_30k: f(0.5, "MB") },
  peers: [
    { name: "damage-control http", decide_median_us: f(12.5, "µs"), decide_p99_us: f(150, "µs"), per_call_ms: f(2.5, "ms"), claude_overhead_ms_per_call: f(3.25, "ms"), pi_overhead_ms_per_call: f(1.5, "ms") },
    { name: "damage-control command hook", decide_median_us: f(12.5, "µs"), decide_p99_us: f(150, "µs"), per_call_ms: f(150, "ms"), claude_overhead_ms_per_call: f(160, "ms"), pi_overhead_ms_per_call: null },
    { name: "cc-safety-net", decide_median_us: f(9000, "µs"), decide_p99_us: f(20000, "µs"), per_call_ms: f(300, "ms"), claude_overhead_ms_per_call: f(310, "ms"), pi_overhead_ms_per_call: null },
    { name: "none", decide_median_us: null, decide_p99_us: null, per_call_ms: null, claude_overhead_ms_per_call: f(0, "ms"), pi_overhead_ms_per_call: f(0, "ms"), claude_session_ms: f(4000, "ms"), pi_session_ms: f(3000, "ms") },
  ],
};

describe("docs/performance.md tables (scripts/perf-table.js)", () => {
  it("renders one row per peer with the figures of the results file", () => {
    const md = perf.renderTables(sample);
    const rows = md.split("\n").filter((l) => l.startsWith("| "));
    const peer = (name: string) => rows.find((l) => l.startsWith(`| ${name} |`));
    assert.equal(peer("damage-control http"), "| damage-control http | 12.5 µs / 150 µs | 2.50 ms | 3.25 ms | 1.50 ms |");
    assert.equal(peer("damage-control command hook"), "| damage-control command hook | 12.5 µs / 150 µs | 150 ms | 160 ms | – |");
    assert.equal(peer("cc-safety-net"), "| cc-safety-net | 9,000 µs / 20,000 µs | 300 ms | 310 ms | – |");
    assert.equal(peer("none"), "| none | – | – | 0.000 ms | 0.000 ms |");
    assert.match(md, /load average 1\.00, 1\.00, 1\.00 at the start and 2\.00, 2\.00, 2\.00 at the end/);
    assert.match(md, /without a hook a session took 4,000 ms \(Claude Code\) and 3,000 ms \(pi\)/);
    assert.match(md, /The command hook measured: Node shim \(test\)\./);
  });

  it("judges each target from the figures: met, not met, not measured", () => {
    const md = perf.renderTables(sample);
    assert.match(md, /\| `decide\(\)` over the corpus, reference rules: median \/ p99 \| 12\.5 µs \/ 150 µs \| textual matcher 1\.50 µs \/ 20\.0 µs \| p99 ≤ 100 µs: not met \|/);
    assert.match(md, /1,000 generated rules: median \/ p99 \| 80\.0 µs \/ 400 µs \| reference rules: 6\.4× the median \| median ≤ 100 µs: met \|/);
    assert.match(md, /with diagnostics \(median\) \| 18\.0 ms \/ 21\.0 ms \| .* \| ≤ 20 ms: not met \|/, "the slower of the two decides");
    assert.match(md, /endpoint, 1 client: .*ours ÷ bare = 1\.80 × \| ≤ 2×: met \|/);
    assert.match(md, /endpoint, 10 clients: .*ours ÷ bare = 4\.00 × \| ≤ 3×: not met \|/);
    assert.match(md, /bounded: 1\.00 MB more for the second 10,000, 0\.500 MB for the third/);
    const empty = perf.renderTables({ peers: [] });
    assert.match(empty, /median ≤ 100 µs: not measured/);
    assert.match(empty, /≤ 2×: not measured/);
  });

  it("replaces only what is between the markers, and refuses a page without them", () => {
    const readme = `# Title\n\n## Performance\n\nintro\n\n${perf.START}\nold table\n${perf.END}\n\nafter\n`;
    const out = perf.updatePage(readme, sample);
    assert.ok(out.startsWith("# Title\n\n## Performance\n\nintro\n\n" + perf.START + "\n"));
    assert.ok(out.endsWith(`\n${perf.END}\n\nafter\n`));
    assert.ok(!out.includes("old table"));
    assert.equal(perf.updatePage(out, sample), out, "idempotent");
    assert.throws(() => perf.updatePage("# no markers\n", sample), /markers/);
  });

  it("docs/performance.md carries the markers and the table rendered from bench/results.json", () => {
    assert.equal(perf.PAGE, path.join(repoRoot, "docs/performance.md"));
    const readme = fs.readFileSync(perf.PAGE, "utf8");
    const results = JSON.parse(fs.readFileSync(path.join(repoRoot, "bench/results.json"), "utf8"));
    assert.equal(perf.updatePage(readme, results), readme, "docs/performance.md's tables are not the rendering of bench/results.json: run node scripts/perf-table.js");
  });
});
