// node dist/bench/scale.js [--cpu-prof]: the scale figures alone (parse 1,000 rules with and
// without diagnostics, decide with 1,000 rules), for profiling the engine without the full bench.
import * as fs from "node:fs";
import * as path from "node:path";
import { decide } from "../src/engine/decide";
import { parseRules } from "../src/engine/rules/parse";
import { CORPUS_CWD, CORPUS_HOME, corpusDir, loadCorpus } from "./lib/corpus";
import { brokenRules, generatedRules } from "./lib/generated";
import { perItem, summarize, timeEach, timeRuns } from "./lib/stats";

const root = path.resolve(__dirname, "../..");
const dir = corpusDir(root);
const cases = loadCorpus(path.join(dir, "commands.jsonl"));
const calls = cases.map((c) => ({ tool: c.tool, input: c.input }));
const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
const only = process.argv[2];

function parseTime(text: string, runs: number) {
  return summarize(timeRuns(() => parseRules(text), runs, 3));
}

if (!only || only === "parse") {
  const big = parseTime(generatedRules(1000), 20);
  const diag = parseTime(brokenRules(1000), 20);
  console.log(`parse 1,000 rules: median ${big.median.toFixed(2)} ms; with diagnostics: ${diag.median.toFixed(2)} ms (${parseRules(brokenRules(1000)).diagnostics.length} diagnostics)`);
}
if (!only || only === "decide") {
  const reference = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8")).rules;
  const generated = parseRules(generatedRules(1000)).rules;
  timeEach(calls, 3, (c) => decide(c, reference, ctx));
  const refSamples = timeEach(calls, 20, (c) => decide(c, reference, ctx));
  const ref = perItem(refSamples, calls.length);
  timeEach(calls, 3, (c) => decide(c, generated, ctx));
  const big = perItem(timeEach(calls, 10, (c) => decide(c, generated, ctx)), calls.length);
  console.log(`decide, reference rules: median ${ref.median.toFixed(1)} µs, p99 case ${ref.p99.toFixed(1)} µs (p99 of samples ${summarize(refSamples).p99.toFixed(1)} µs)`);
  console.log(`decide, 1,000 rules: median ${big.median.toFixed(1)} µs, p99 case ${big.p99.toFixed(1)} µs`);
  // The slowest cases (each case's median over the rounds).
  const per = calls.map((c, i) => {
    const xs: number[] = [];
    for (let r = 0; r < 20; r++) xs.push(refSamples[r * calls.length + i]);
    xs.sort((a, b) => a - b);
    return [xs[10], cases[i].id, JSON.stringify(c.input).slice(0, 90)] as const;
  });
  for (const [t, id, text] of per.sort((a, b) => b[0] - a[0]).slice(0, 6)) console.log(`  ${t.toFixed(1).padStart(7)} µs  ${id} ${text}`);
}
