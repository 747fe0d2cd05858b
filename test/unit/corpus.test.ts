// The engine on the labelled corpus: correctness thresholds (not timing), overall and per class,
// and never worse than the naive textual matcher on any class.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { catchRate, CORPUS_CWD, CORPUS_HOME, corpusDir, exactRate, fpRate, loadCorpus, score } from "../../bench/lib/corpus";
import { textualDecide } from "../../bench/lib/textual";
import { decide } from "../../src/engine/decide";
import { parseRules } from "../../src/engine/rules/parse";
import type { Action } from "../../src/engine/types";

describe("corpus", () => {
  const root = path.resolve(__dirname, "../../..");
  const dir = corpusDir(root);
  const parsed = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8"));
  const cases = loadCorpus(path.join(dir, "commands.jsonl"));
  const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
  const engine = score(cases, (c) => decide({ tool: c.tool, input: c.input }, parsed.rules, ctx).action as Action);
  const textual = score(cases, (c) => textualDecide({ tool: c.tool, input: c.input }, parsed.rules, ctx));
  const misses = () => engine.misses.map(({ c, got }) => `${c.id} expect ${c.expect} got ${got}: ${JSON.stringify(c.input)}`).join("\n");

  it("loads the reference rules and all 400 cases", () => {
    assert.ok(parsed.ok);
    assert.equal(cases.length, 400);
  });

  it("catches ≥ 98 % of the cases to block or ask", () => {
    assert.ok(catchRate(engine.overall) >= 98, `catch ${catchRate(engine.overall).toFixed(1)} %\n${misses()}`);
  });

  it("has ≤ 2 % false positives", () => {
    assert.ok(fpRate(engine.overall) <= 2, `FP ${fpRate(engine.overall).toFixed(1)} %\n${misses()}`);
  });

  it("is exact on ≥ 95 % of the cases", () => {
    assert.ok(exactRate(engine.overall) >= 95, `exact ${exactRate(engine.overall).toFixed(1)} %\n${misses()}`);
  });

  it("is at least as good as the textual matcher on every class", () => {
    for (const [cls, e] of engine.byClass) {
      const t = textual.byClass.get(cls)!;
      if (e.positives > 0) assert.ok(catchRate(e) >= catchRate(t), `${cls}: catch ${catchRate(e)} < textual ${catchRate(t)}`);
      if (e.negatives > 0) assert.ok(fpRate(e) <= fpRate(t), `${cls}: FP ${fpRate(e)} > textual ${fpRate(t)}`);
    }
  });
});
