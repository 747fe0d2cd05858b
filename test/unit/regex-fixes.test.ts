// The quick fix of an invalid regex (src/views/regex-fixes.ts): a fix that keeps the rule matching
// its own examples comes first; a fix that changes what the rule matches says which example it
// loses. Issue 38 §1: "Escape the offending character" turned '\bgit\s+push(\b' into a rule that
// never matches `git push origin main`.
import * as assert from "node:assert/strict";
import { LostMatchTracker } from "../../src/views/panel/lost-matches";
import { lostMatches, previousVersion, regexExamples, regexFixes, sampleOf } from "../../src/views/regex-fixes";

describe("regex quick fixes", () => {
  it("an unclosed group: closing it comes first and still matches the rule's examples; escaping says it no longer does", () => {
    const broken = "\\bgit\\s+push(\\b";
    const examples = regexExamples({ source: broken, previous: "\\bgit\\s+push\\b", seen: ["git push origin main"] });
    assert.deepEqual(examples, ["git push origin main", "git push"]);
    const fixes = regexFixes(broken, examples);
    assert.equal(fixes[0].kind, "close");
    assert.equal(fixes[0].pattern, "\\bgit\\s+push(\\b)");
    assert.deepEqual(fixes[0].lost, []);
    assert.deepEqual(fixes[0].matches, examples);
    for (const e of examples) assert.ok(new RegExp(fixes[0].pattern).test(e), e);
    const escape = fixes.find((f) => f.kind === "escape")!;
    assert.equal(escape.pattern, "\\bgit\\s+push\\(\\b");
    assert.deepEqual(escape.lost, examples, "escaping the ( makes the rule need a literal (");
    assert.equal(fixes.at(-1), escape, "the fix that changes the meaning is offered last");
    // Every fix compiles, and none is offered twice.
    for (const f of fixes) new RegExp(f.pattern);
    assert.equal(new Set(fixes.map((f) => f.pattern)).size, fixes.length);
  });

  it("without a previous version, the examples are the regex's literal reading", () => {
    assert.equal(sampleOf("\\bgit\\s+push(\\b"), "git push");
    assert.equal(sampleOf("\\brm\\s+(-[^\\s]*)*-[rRf]"), "rm -x-r");
    assert.equal(sampleOf("^(terraform|tofu)\\s+destroy"), "terraform destroy");
    assert.equal(sampleOf("(?=x)y"), undefined);
    assert.deepEqual(regexExamples({ source: "\\bgit\\s+push(\\b" }), ["git push"]);
  });

  it("an unmatched ) or a quantifier with nothing to repeat: removing it keeps the examples", () => {
    const stray = regexFixes("\\bdrop\\s+table)", ["drop table users"]);
    assert.equal(stray[0].pattern, "\\bdrop\\s+table");
    assert.deepEqual(stray[0].lost, []);
    const star = regexFixes("*\\bshred\\b", ["shred -u file"]);
    assert.equal(star[0].pattern, "\\bshred\\b");
    assert.deepEqual(star[0].lost, []);
  });

  it("an unclosed class is closed", () => {
    const fixes = regexFixes("\\brm\\s+-[rf", ["rm -rf /"]);
    assert.equal(fixes[0].pattern, "\\brm\\s+-[rf]");
    assert.deepEqual(fixes[0].lost, []);
  });

  it("the previous version of a broken rule is the pattern in force within a typo's reach", () => {
    assert.equal(previousVersion("\\bgit\\s+push(\\b", ["\\brm\\s+-rf", "\\bgit\\s+push\\b"]), "\\bgit\\s+push\\b");
    assert.equal(previousVersion("\\bcompletely\\s+new", ["\\brm\\s+-rf"]), undefined);
  });

  it("the health line's check: a saved change that stops matching what the rule matched", () => {
    assert.deepEqual(lostMatches("\\bgit\\s+push\\b", "\\bgit\\s+push\\(\\b", ["git push origin main", "ls"]), ["git push origin main", "git push"]);
    assert.deepEqual(lostMatches("\\bgit\\s+push\\b", "\\bgit\\s+push(\\b)"), []);
  });
});

describe("the panel's health line: rules changed into ones that no longer match", () => {
  it("remembers the last working rules; a broken state is no version; a later fix that keeps the meaning clears it", () => {
    const t = new LostMatchTracker();
    const seen = (rule: string) => (rule === "\\bgit\\s+push\\b" ? ["git push origin main"] : []);
    const rules = (...p: string[]) => p.map((pattern, line) => ({ pattern, line }));
    assert.deepEqual(t.update("/w", rules("\\brm\\s+-rf", "\\bgit\\s+push\\b"), seen), []);
    // Broken (the entry dropped): nothing to say yet.
    assert.deepEqual(t.update("/w", rules("\\brm\\s+-rf"), seen, true), []);
    const lost = t.update("/w", rules("\\brm\\s+-rf", "\\bgit\\s+push\\(\\b"), seen);
    assert.deepEqual(lost, [{ line: 1, pattern: "\\bgit\\s+push\\(\\b", previous: "\\bgit\\s+push\\b", examples: ["git push origin main", "git push"] }]);
    // Unchanged rules: the finding stays.
    assert.equal(t.update("/w", rules("\\brm\\s+-rf", "\\bgit\\s+push\\(\\b"), seen).length, 1);
    // Changed again into one that matches what the original matched: cleared.
    assert.deepEqual(t.update("/w", rules("\\brm\\s+-rf", "\\bgit\\s+push(\\b)"), seen), []);
  });
});
