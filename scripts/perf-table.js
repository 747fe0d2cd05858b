// Writes docs/performance.md's tables from bench/results.json (what `npm run bench` measured),
// between the markers <!-- perf-table:start --> and <!-- perf-table:end -->. `npm run bench` runs
// it at the end; run it alone after editing the rendering:  node scripts/perf-table.js [RESULTS] [PAGE]
// No numbers are typed by hand: every figure in the tables comes from the results file.
const fs = require("node:fs");
const path = require("node:path");

const START = "<!-- perf-table:start -->";
const END = "<!-- perf-table:end -->";

/** Targets of issue 17, checked against the figures (a missing figure is "not measured"). */
const TARGETS = {
  decideP99Reference: 100, // µs
  decideMedian1000: 100, // µs
  parse1000: 20, // ms, with and without diagnostics
  c1Overhead: 2, // ×
  c10Overhead: 3, // ×
  decideMedianReference: 25, // µs (issue 26)
  ratioOverTextual: 10, // ×
  overFloor: 1.2, // ×, our hook's time per tool call ÷ the empty hook's (Claude Code)
  rssGrowth: 1.5, // ×, RSS after 30,000 decisions ÷ after start
};

function value(cell) {
  if (cell === null || cell === undefined) return undefined;
  return typeof cell === "number" ? cell : cell.value;
}

function fmt(cell) {
  const v = value(cell);
  if (v === undefined || !Number.isFinite(v)) return "–";
  const unit = typeof cell === "number" ? "" : ` ${cell.unit}`;
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  const text = v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${text}${unit}`;
}

const ratio = (a, b) => (a !== undefined && b !== undefined && b !== 0 ? `${(a / b).toFixed(1)}×` : "–");
const verdict = (v, max) => (v === undefined ? "not measured" : v <= max ? "met" : "not met");

/** Markdown for the two tables (peers; figures with baselines and targets). */
function renderTables(r) {
  const m = r.machine || {};
  const e = r.engine || {};
  const rules = r.rules || {};
  const ep = r.endpoint || {};
  const mem = r.memory || {};
  const hc = r.hook_cost || {};
  const out = [];
  out.push(
    `Figures of one \`npm run bench\` run on ${String(m.date || "?").slice(0, 10)}: ${m.cpus || "?"}, ${m.memory || "?"}, Node ${m.node || "?"}` +
      `, load average ${m.load_start || "?"} at the start and ${m.load_end || "?"} at the end (a shared machine: compare the ratios).`,
  );
  out.push("");
  out.push("| decider | decision in-process: median / p99 | cost per call as the agent pays it | Claude Code 2.1.332: added per tool call | pi 1.6.0: added per tool call |");
  out.push("|---|---|---|---|---|");
  for (const p of r.peers || []) {
    const decideCell = value(p.decide_median_us) === undefined ? "–" : `${fmt(p.decide_median_us)} / ${fmt(p.decide_p99_us)}`;
    out.push(`| ${p.name} | ${decideCell} | ${fmt(p.per_call_ms)} | ${fmt(p.claude_overhead_ms_per_call)} | ${fmt(p.pi_overhead_ms_per_call)} |`);
  }
  const none = (r.peers || []).find((p) => p.name === "none");
  if (none && value(none.claude_session_ms) !== undefined) {
    out.push("");
    out.push(
      `Claude Code: added per tool call = the hooks' own time per tool call as Claude Code logs it (\`--debug-file\`; the 5 % slowest and fastest hook calls left out). ` +
        `pi: added per tool call = (median wall time of a scripted session of 50 Bash calls − the same session without a hook) ÷ 50; ` +
        `without a hook a session took ${fmt(none.claude_session_ms)} (Claude Code) and ${fmt(none.pi_session_ms)} (pi). ` +
        `In-process decisions are over the corpus's Bash cases. The command hook measured: ${hc.command_hook_program || "?"}.`,
    );
  }
  out.push("");
  out.push("| figure | measured | baseline in the same run | target |");
  out.push("|---|---|---|---|");
  const row = (...cells) => out.push(`| ${cells.join(" | ")} |`);
  row(
    "`decide()` over the corpus, reference rules: median / p99",
    `${fmt(e.decide_median_reference)} / ${fmt(e.decide_p99_reference)}`,
    `textual matcher ${fmt(e.textual_median_reference)} / ${fmt(e.textual_p99_reference)}`,
    `p99 ≤ ${TARGETS.decideP99Reference} µs: ${verdict(value(e.decide_p99_reference), TARGETS.decideP99Reference)}`,
  );
  row(
    "`decide()`, 1,000 generated rules: median / p99",
    `${fmt(e.decide_median_1000_rules)} / ${fmt(e.decide_p99_1000_rules)}`,
    `reference rules: ${ratio(value(e.decide_median_1000_rules), value(e.decide_median_reference))} the median`,
    `median ≤ ${TARGETS.decideMedian1000} µs: ${verdict(value(e.decide_median_1000_rules), TARGETS.decideMedian1000)}`,
  );
  row(
    "`decide()` over the corpus, embedded defaults: median / p99",
    `${fmt(e.decide_median_defaults)} / ${fmt(e.decide_p99_defaults)}`,
    `reference rules: ${ratio(value(e.decide_median_defaults), value(e.decide_median_reference))} the median`,
    "",
  );
  row(
    "`decide()` median, reference rules ÷ textual matcher",
    fmt(e.ratio_engine_over_textual_median),
    `median ≤ ${TARGETS.decideMedianReference} µs: ${verdict(value(e.decide_median_reference), TARGETS.decideMedianReference)}`,
    `≤ ${TARGETS.ratioOverTextual}×: ${verdict(value(e.ratio_engine_over_textual_median), TARGETS.ratioOverTextual)}`,
  );
  const cs = r.claude_sessions || {};
  const ct = r.claude_turns || {};
  const ch = r.claude_hooks || {};
  const ps = r.pi_sessions || {};
  for (const [label, ours, empty] of [
    ["Claude Code: our HTTP hook's time per tool call ÷ the empty HTTP hook's", "http", "empty_http"],
    ["Claude Code: our command hook's ÷ the empty command hook's (sh + curl)", "command", "empty_command"],
  ]) {
    const f = ch[`ratio_${ours}_over_${empty}`];
    row(
      label,
      `${fmt(f)} (${fmt(ch[`${ours}_per_call`])} ÷ ${fmt(ch[`${empty}_per_call`])})`,
      `as Claude Code logs each hook call, sessions interleaved (per session: ours ${fmt(ch[`${ours}_sessions_min`])}–${fmt(ch[`${ours}_sessions_max`])}, empty ${fmt(ch[`${empty}_sessions_min`])}–${fmt(ch[`${empty}_sessions_max`])}); end to end: ${fmt(ct[`ratio_${ours}_over_${empty}`])} by the median turn, ${fmt(cs[`ratio_${ours}_over_${empty}`])} by whole sessions`,
      `≤ ${TARGETS.overFloor}×: ${verdict(value(f), TARGETS.overFloor)}`,
    );
  }
  const peer = (name) => (r.peers || []).find((p) => p.name === name);
  const piOurs = peer("damage-control http");
  const piEmpty = peer("empty pi extension");
  if (piOurs && piEmpty) {
    row(
      "pi: our extension's added time per tool call, and the empty extension's",
      `${fmt(piOurs.pi_overhead_ms_per_call)}; ${fmt(piEmpty.pi_overhead_ms_per_call)}`,
      `whole sessions interleaved (ours ÷ empty: ${fmt(ps.ratio_http_over_empty)}; the empty extension's cost is near the sessions' noise, so the ratio moves far between runs)`,
      "",
    );
  }
  const worstParse = Math.max(value(rules.parse_1000_rules_median) ?? NaN, value(rules.diagnostics_1000_rules_median) ?? NaN);
  row(
    "rules: 1,000 rules / with diagnostics (median)",
    `${fmt(rules.parse_1000_rules_median)} / ${fmt(rules.diagnostics_1000_rules_median)}`,
    `reference file (36 rules) ${fmt(rules.parse_reference_median)}`,
    `≤ ${TARGETS.parse1000} ms: ${verdict(Number.isFinite(worstParse) ? worstParse : undefined, TARGETS.parse1000)}`,
  );
  for (const [c, max] of [
    [1, TARGETS.c1Overhead],
    [10, TARGETS.c10Overhead],
  ]) {
    row(
      `endpoint, ${c} client${c > 1 ? "s" : ""}: time per request (requests/s)`,
      `${fmt(ep[`c${c}_request_us`])} (${fmt(ep[`c${c}_rps`])})`,
      `bare \`node:http\` answering \`{}\`: ${fmt(ep[`c${c}_bare_request_us`])} (${fmt(ep[`c${c}_bare_rps`])}); ours ÷ bare = ${fmt(ep[`c${c}_overhead`])}`,
      `≤ ${max}×: ${verdict(value(ep[`c${c}_overhead`]), max)}`,
    );
  }
  if (value(ep.paced_us) !== undefined) {
    row(
      "endpoint, paced as an agent calls it (one request every 45 ms, each its own call): round trip",
      fmt(ep.paced_us),
      `bare: ${fmt(ep.paced_bare_us)}; ours ${fmt(ep.paced_over_bare_us)} over it (${fmt(ep.paced_overhead)}), what the HTTP hook's time inside Claude Code follows`,
      "",
    );
  }
  if (value(ep.worker_judge_us) !== undefined) {
    row(
      "one decision through the decider's worker thread, one at a time (what a call too large or rules not vetted pay)",
      fmt(ep.worker_judge_us),
      `the same decision on the caller's thread: ${fmt(ep.in_process_judge_us)}; the hop between threads ${(value(ep.worker_judge_us) - value(ep.in_process_judge_us)).toFixed(1)} µs`,
      "",
    );
  }
  if (value(ep.inline_slowest_ms) !== undefined) {
    row(
      "decisions made on the endpoint's thread (bounded by construction: vetted rules, ≤ 512 characters)",
      `${(100 * value(ep.inline_share_of_corpus)).toFixed(0)} % of the corpus's calls`,
      `the slowest found on commands built to be slow at the limit: ${fmt(ep.inline_slowest_ms)} (the worker's limit: 2,000 ms)`,
      "",
    );
  }
  row(
    "hook cost per call, end to end (20 calls one after another)",
    `HTTP ${fmt(hc.http_per_call)}; command hook ${fmt(hc.command_hook_per_call)}; cc-safety-net ${fmt(hc.cc_safety_net_per_call)}`,
    `bare \`node -e ""\` ${fmt(hc.bare_node_per_call)}`,
    "",
  );
  row(
    "endpoint memory (RSS, endpoint + decider worker): start / after 10,000 / 20,000 / 30,000 decisions",
    `${fmt(mem.endpoint_rss_start)} / ${fmt(mem.endpoint_rss_after_10k)} / ${fmt(mem.endpoint_rss_after_20k)} / ${fmt(mem.endpoint_rss_after_30k)}`,
    `bare \`node:http\` server ${fmt(mem.bare_server_rss)}`,
    `bounded: ${value(mem.growth_10k_to_20k) === undefined ? "not measured" : `${fmt(mem.growth_10k_to_20k)} more for the second 10,000, ${fmt(mem.growth_20k_to_30k)} for the third`}`,
  );
  const growth = value(mem.endpoint_rss_after_30k) !== undefined && value(mem.endpoint_rss_start) ? value(mem.endpoint_rss_after_30k) / value(mem.endpoint_rss_start) : undefined;
  row("endpoint RSS after 30,000 decisions ÷ after start", growth === undefined ? "–" : `${growth.toFixed(2)}×`, "", `≤ ${TARGETS.rssGrowth}×: ${verdict(growth, TARGETS.rssGrowth)}`);
  const x = r.extension || {};
  if (value(x.activation) !== undefined) row("activation in the real VS Code test host", `${fmt(x.activation)} (endpoint listening at ${fmt(x.activation_until_endpoint)})`, "", "");
  return out.join("\n");
}

/** The page text with the tables replaced between the markers (which must both be there). */
function updatePage(page, results) {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`the page has no ${START} … ${END} markers`);
  return page.slice(0, a + START.length) + "\n" + renderTables(results) + "\n" + page.slice(b);
}

module.exports = { renderTables, updatePage, START, END, PAGE: path.join(__dirname, "..", "docs", "performance.md") };

if (require.main === module) {
  const root = path.resolve(__dirname, "..");
  const resultsFile = process.argv[2] || path.join(root, "bench", "results.json");
  const pageFile = process.argv[3] || module.exports.PAGE;
  const results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
  const before = fs.readFileSync(pageFile, "utf8");
  const after = updatePage(before, results);
  if (after !== before) fs.writeFileSync(pageFile, after);
  console.log(`${path.relative(root, pageFile)}: Performance tables ${after === before ? "unchanged" : "written"} from ${path.relative(root, resultsFile)}`);
}
