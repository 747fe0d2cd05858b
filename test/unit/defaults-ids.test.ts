// Every embedded default rule has a stable id (issue 15 item 1): accepted and validated in any
// rules file (unique, [a-z0-9-]), carried on the verdict, shown in the reason.
import * as assert from "node:assert/strict";
import { defaultRules } from "../../src/engine/rules/defaults";
import { parseRules, pathRuleId, RULE_ID } from "../../src/engine/rules/parse";
import { judge } from "./defaults-helpers";

describe("defaults: rule ids", () => {
  it("every default rule has a unique, well-formed id", () => {
    const r = defaultRules();
    const all = [...r.bashToolPatterns, ...r.zeroAccessPaths, ...r.readOnlyPaths, ...r.noDeletePaths];
    for (const rule of all) assert.ok(rule.id !== undefined && RULE_ID.test(rule.id), `${JSON.stringify(rule.kind === "bashPattern" ? rule.pattern : rule.path)} has id ${rule.id}`);
    const ids = all.map((x) => x.id);
    assert.equal(new Set(ids).size, ids.length, "ids are unique");
  });

  it("ids of the existing defaults are the stable names layers use", () => {
    const ids = new Set([...defaultRules().bashToolPatterns, ...defaultRules().zeroAccessPaths, ...defaultRules().noDeletePaths].map((x) => x.id));
    for (const id of ["rm-recursive-force", "sudo", "git-reset-hard", "git-push-force", "sql-drop-table", "db-reset-prisma", "infra-destroy-terraform", "secrets-env-dump", "zero-access-env", "zero-access-home-ssh", "zero-access-any-pem", "no-delete-git"]) {
      assert.ok(ids.has(id), id);
    }
  });

  it("path ids are derived from the list and the path", () => {
    assert.equal(pathRuleId("zeroAccess", ".env"), "zero-access-env");
    assert.equal(pathRuleId("zeroAccess", "~/.ssh/"), "zero-access-home-ssh");
    assert.equal(pathRuleId("readOnly", ".claude/settings*.json"), "read-only-claude-settings-any-json");
    assert.equal(pathRuleId("noDelete", ".git/"), "no-delete-git");
    const parsed = parseRules("zeroAccessPaths:\n  - .env\n  - env/\n");
    assert.deepEqual(parsed.rules.zeroAccessPaths.map((p) => p.id), ["zero-access-env", "zero-access-env-2"]);
  });

  it("a rules file may give a pattern an id; a malformed or duplicate id is an error", () => {
    const ok = parseRules("bashToolPatterns:\n  - id: my-rule-1\n    pattern: x\n    reason: r\n");
    assert.equal(ok.ok, true);
    assert.equal(ok.rules.bashToolPatterns[0].id, "my-rule-1");
    const noId = parseRules("bashToolPatterns:\n  - pattern: x\n    reason: r\n");
    assert.equal(noId.ok, true, "an id is optional in a user's file");
    assert.equal(noId.rules.bashToolPatterns[0].id, undefined);
    for (const bad of ["My_Rule", "a--b", "-a", "a b", "true"]) {
      const p = parseRules(`bashToolPatterns:\n  - id: ${bad === "true" ? "true" : JSON.stringify(bad)}\n    pattern: x\n    reason: r\n`);
      assert.equal(p.ok, false, bad);
      assert.equal(p.diagnostics[0].code, "invalid-id", bad);
    }
    const dup = parseRules("bashToolPatterns:\n  - id: a\n    pattern: x\n    reason: r\n  - id: a\n    pattern: y\n    reason: r\n");
    assert.equal(dup.ok, false);
    assert.equal(dup.diagnostics[0].code, "duplicate-id");
    assert.equal(dup.diagnostics[0].range.start.line, 4);
    const clash = parseRules("bashToolPatterns:\n  - id: zero-access-env\n    pattern: x\n    reason: r\nzeroAccessPaths:\n  - .env\n");
    assert.equal(clash.ok, false);
    assert.equal(clash.diagnostics[0].code, "duplicate-id");
  });

  it("the verdict carries the id and the reason shows it", () => {
    const v = judge("npx prisma migrate reset --force");
    assert.equal(v.rule?.id, "db-reset-prisma");
    assert.match(v.reason, /\(rule: bash pattern db-reset-prisma \//);
    const p = judge("cat .env");
    assert.equal(p.rule?.id, "zero-access-env");
  });
});
