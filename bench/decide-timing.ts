// node dist/bench/decide-timing.js: median / p99 time of decide() per corpus case (a quick
// measurement for the shell analysis; the formal `npm run bench` is separate).
import * as fs from "node:fs";
import * as path from "node:path";
import { decide } from "../src/engine/decide";
import { parseRules } from "../src/engine/rules/parse";
import { CORPUS_CWD, CORPUS_HOME, corpusDir, loadCorpus } from "./lib/corpus";

const dir = corpusDir(path.resolve(__dirname, "../.."));
const rules = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8")).rules;
const cases = loadCorpus(path.join(dir, "commands.jsonl"));
const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
const rounds = Number(process.argv[2] ?? 50);

for (let i = 0; i < 5; i++) for (const c of cases) decide({ tool: c.tool, input: c.input }, rules, ctx);
const perCase: number[] = [];
for (const c of cases) {
  const call = { tool: c.tool, input: c.input };
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) decide(call, rules, ctx);
  perCase.push(Number(process.hrtime.bigint() - t0) / rounds / 1000);
}
const sorted = [...perCase].sort((a, b) => a - b);
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const bash = cases.map((c, i) => [c, perCase[i]] as const).filter(([c]) => c.tool.toLowerCase() === "bash");
const bashSorted = bash.map(([, t]) => t).sort((a, b) => a - b);
console.log(`bash cases only (${bash.length}): median ${bashSorted[Math.floor(bashSorted.length / 2)].toFixed(1)} µs, p99 ${bashSorted[Math.floor(0.99 * bashSorted.length)].toFixed(1)} µs`);
const slowest = [...bash].sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(`decide() over ${cases.length} corpus cases × ${rounds}: median ${q(0.5).toFixed(1)} µs, p90 ${q(0.9).toFixed(1)} µs, p99 ${q(0.99).toFixed(1)} µs, max ${sorted[sorted.length - 1].toFixed(1)} µs`);
for (const [c, t] of slowest) console.log(`  ${t.toFixed(1).padStart(7)} µs  ${c.id} ${JSON.stringify(c.input).slice(0, 90)}`);
