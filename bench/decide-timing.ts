// node dist/bench/decide-timing.js [rounds] [--corpus FILE] [--everyday]: decide() on the corpus measured as
// `npm run bench` section 1 measures it (rounds × every case interleaved, each case's median,
// then median and p99 across cases), in seconds instead of minutes, for work on the engine.
// The slowest cases are listed so a change can be aimed at them.
import * as fs from "node:fs";
import * as path from "node:path";
import { decide } from "../src/engine/decide";
import { parseRules } from "../src/engine/rules/parse";
import { CORPUS_CWD, CORPUS_HOME, corpusDir, loadCorpus } from "./lib/corpus";
import { perItem, timeEach } from "./lib/stats";

// `--corpus FILE`: another labelled corpus (e.g. test/fixtures/corpus/generalisation.jsonl), still
// under the reference rules; `--everyday`: only its cases expected to pass.
const dir = corpusDir(path.resolve(__dirname, "../.."));
const rules = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8")).rules;
const corpusAt = process.argv.indexOf("--corpus");
const cases = loadCorpus(corpusAt > 0 ? process.argv[corpusAt + 1] : path.join(dir, "commands.jsonl")).filter((c) => !process.argv.includes("--everyday") || c.expect === "allow");
const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
const rounds = Number(/^\d+$/.test(process.argv[2] ?? "") ? process.argv[2] : 30);

const calls = cases.map((c) => ({ tool: c.tool, input: c.input }));
const bash = calls.filter((c) => c.tool.toLowerCase() === "bash" && typeof c.input.command === "string" && c.input.command.trim() !== "");
// The same warm-up as npm run bench (steady state, as in the long-lived decider worker).
timeEach(calls, 20, (c) => decide(c, rules, ctx));
const all = perItem(timeEach(calls, rounds, (c) => decide(c, rules, ctx)), calls.length);
const samples = timeEach(bash, rounds, (c) => decide(c, rules, ctx));
const ours = perItem(samples, bash.length);
console.log(`all ${calls.length} cases: median ${all.median.toFixed(1)} µs, p99 ${all.p99.toFixed(1)} µs`);
console.log(`the ${bash.length} Bash cases (npm run bench's figure): median ${ours.median.toFixed(1)} µs, p99 ${ours.p99.toFixed(1)} µs`);
const each = bash.map((c, i) => {
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) xs.push(samples[r * bash.length + i]);
  xs.sort((a, b) => a - b);
  return [c, xs[xs.length >> 1]] as const;
});
for (const [c, t] of [...each].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${t.toFixed(1).padStart(7)} µs  ${JSON.stringify(c.input.command).slice(0, 100)}`);
