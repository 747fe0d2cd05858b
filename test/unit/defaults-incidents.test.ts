// The embedded defaults on the incident corpus (test/fixtures/corpus/incidents.jsonl): real
// incident commands, each with its public source, and the routine work around them. Thresholds
// of issue 19: catch ≥ 95 %, false positives ≤ 2 %.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { catchRate, CORPUS_CWD, CORPUS_HOME, exactRate, fpRate, loadCorpus, score } from "../../bench/lib/corpus";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import { emptyRuleSet } from "../../src/engine/rules/parse";
import type { Action } from "../../src/engine/types";

describe("defaults: incident corpus", () => {
  const file = path.resolve(__dirname, "../../../test/fixtures/corpus/incidents.jsonl");
  const cases = loadCorpus(file);
  const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };
  const scored = score(cases, (c) => decide({ tool: c.tool, input: c.input }, defaultRules(), ctx).action as Action);
  const misses = () => scored.misses.map(({ c, got }) => `${c.id} expect ${c.expect} got ${got}: ${JSON.stringify(c.input)}`).join("\n");

  it("has ≥ 120 cases, each with a public source, about half of them routine work", () => {
    assert.ok(cases.length >= 120, `${cases.length} cases`);
    for (const c of cases) assert.match((c as { source?: string }).source ?? "", /^https:\/\/\S+$/, `${c.id} has a source URL`);
    const routine = cases.filter((c) => c.expect === "allow").length;
    assert.ok(routine >= cases.length * 0.4 && routine <= cases.length * 0.6, `${routine} of ${cases.length} are routine`);
    assert.equal(new Set(cases.map((c) => c.id)).size, cases.length, "ids are unique");
  });

  it("catches ≥ 95 % of the incidents", () => {
    assert.ok(catchRate(scored.overall) >= 95, `catch ${catchRate(scored.overall).toFixed(1)} %\n${misses()}`);
  });

  it("has ≤ 2 % false positives on the routine work", () => {
    assert.ok(fpRate(scored.overall) <= 2, `FP ${fpRate(scored.overall).toFixed(1)} %\n${misses()}`);
  });

  it("is exact (ask where ask, block where block) on ≥ 95 %", () => {
    assert.ok(exactRate(scored.overall) >= 95, `exact ${exactRate(scored.overall).toFixed(1)} %\n${misses()}`);
  });

  it("control: with no rules at all the incidents are not caught (the corpus measures the rules)", () => {
    const bare = score(cases, (c) => decide({ tool: c.tool, input: c.input }, emptyRuleSet(), ctx).action as Action);
    assert.ok(catchRate(bare.overall) < 20, `catch without rules ${catchRate(bare.overall).toFixed(1)} %`);
  });
});
