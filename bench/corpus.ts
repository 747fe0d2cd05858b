// npm run bench:corpus [FILE]: the engine and the textual matcher on the labelled corpus,
// per class, per variant and overall, in the same run. `--misses` lists the engine's errors.
import * as fs from "node:fs";
import * as path from "node:path";
import { decide } from "../src/engine/decide";
import { defaultRules } from "../src/engine/rules/defaults";
import { parseRules } from "../src/engine/rules/parse";
import type { Action } from "../src/engine/types";
import { catchRate, CORPUS_CWD, CORPUS_HOME, corpusDir, exactRate, fpRate, loadCorpus, score, type Score } from "./lib/corpus";
import { textualDecide } from "./lib/textual";

const root = path.resolve(__dirname, "../..");
const args = process.argv.slice(2);
const showMisses = args.includes("--misses");
const dir = corpusDir(root);
const file = args.find((a) => !a.startsWith("--")) ?? path.join(dir, "commands.jsonl");
const rulesFile = path.join(dir, "rules.yaml");
const parsed = parseRules(fs.readFileSync(rulesFile, "utf8"));
if (!parsed.ok) {
  console.error(`reference rules do not load: ${parsed.diagnostics.map((d) => d.message).join("; ")}`);
  process.exit(2);
}
const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
const cases = loadCorpus(file);
const engine = score(cases, (c) => decide({ tool: c.tool, input: c.input }, parsed.rules, ctx).action as Action);
const textual = score(cases, (c) => textualDecide({ tool: c.tool, input: c.input }, parsed.rules, ctx));

const f = (n: number) => (Number.isNaN(n) ? "   –  " : `${n.toFixed(1).padStart(5)}%`);
function table(title: string, keys: string[], a: Map<string, Score>, b: Map<string, Score>): void {
  console.log(`\n${title}`);
  console.log(`${"".padEnd(24)} ${"n".padStart(4)} | engine: catch  exact     FP | textual: catch  exact     FP`);
  for (const k of keys) {
    const e = a.get(k)!;
    const t = b.get(k)!;
    console.log(`${k.padEnd(24)} ${String(e.cases).padStart(4)} |       ${f(catchRate(e))} ${f(exactRate(e))} ${f(fpRate(e))} |        ${f(catchRate(t))} ${f(exactRate(t))} ${f(fpRate(t))}`);
  }
}

console.log(`corpus: ${file} (${cases.length} cases), rules: ${rulesFile}`);
table("by class", [...engine.byClass.keys()], engine.byClass, textual.byClass);
table("by variant", [...engine.byVariant.keys()], engine.byVariant, textual.byVariant);
const o = engine.overall;
const t = textual.overall;
console.log(`\noverall engine : catch ${f(catchRate(o))} (${o.caught}/${o.positives})  exact ${f(exactRate(o))} (${o.exact}/${o.cases})  false positives ${f(fpRate(o))} (${o.falsePositives}/${o.negatives})`);
console.log(`overall textual: catch ${f(catchRate(t))} (${t.caught}/${t.positives})  exact ${f(exactRate(t))} (${t.exact}/${t.cases})  false positives ${f(fpRate(t))} (${t.falsePositives}/${t.negatives})`);
if (showMisses) {
  console.log(`\nengine misses (${engine.misses.length}):`);
  for (const { c, got } of engine.misses) console.log(`  ${c.id} ${c.class}/${c.variant} expect ${c.expect} got ${got}: ${c.tool} ${JSON.stringify(c.input).slice(0, 140)}`);
}

// Incident corpus (h4, issue 19): real incident commands and the routine work around them,
// scored with the embedded defaults (what a user without a rules file gets), not the reference rules.
{
  const incidentsFile = path.join(root, "test/fixtures/corpus/incidents.jsonl");
  if (fs.existsSync(incidentsFile) && !args.some((a) => !a.startsWith("--"))) {
    const incidents = loadCorpus(incidentsFile);
    const scored = score(incidents, (c) => decide({ tool: c.tool, input: c.input }, defaultRules(), ctx).action as Action);
    console.log(`\nincident corpus: ${incidentsFile} (${incidents.length} cases), rules: embedded defaults`);
    console.log(`\nby class\n${"".padEnd(24)} ${"n".padStart(4)} | catch  exact     FP`);
    for (const [k, e] of scored.byClass) console.log(`${k.padEnd(24)} ${String(e.cases).padStart(4)} | ${f(catchRate(e))} ${f(exactRate(e))} ${f(fpRate(e))}`);
    const s = scored.overall;
    console.log(`\noverall incidents (defaults): catch ${f(catchRate(s))} (${s.caught}/${s.positives})  exact ${f(exactRate(s))} (${s.exact}/${s.cases})  false positives ${f(fpRate(s))} (${s.falsePositives}/${s.negatives})`);
    if (showMisses) {
      console.log(`\nincident misses (${scored.misses.length}):`);
      for (const { c, got } of scored.misses) console.log(`  ${c.id} ${c.class}/${c.variant} expect ${c.expect} got ${got}: ${JSON.stringify(c.input).slice(0, 140)}`);
    }
  }
}
