// toolNamePatterns (rules about a tool by its name) and tool exceptions (`allow: {tool}`): the same
// diagnostics, ids, layers and exception flow as the other lists; and what people see of an MCP
// call (server · tool, the arguments that matter, never a secret).
import * as assert from "node:assert/strict";
import { decide } from "../../src/engine/decide";
import { mcpName, toolLabel } from "../../src/engine/mcp/name";
import { mcpCallFromTarget } from "../../src/engine/mcp/target";
import { defaultRules } from "../../src/engine/rules/defaults";
import { mergeLayers, looseningItems, type Layer } from "../../src/engine/rules/layers";
import { parseRules } from "../../src/engine/rules/parse";
import { describeTarget } from "../../src/engine/toolcall";
import type { RuleSet } from "../../src/engine/types";

const CTX = { cwd: "/home/dev/shop", home: "/home/dev" };
const rules = (text: string): RuleSet => {
  const p = parseRules(text);
  assert.ok(p.ok, JSON.stringify(p.diagnostics));
  return p.rules;
};
const floor: Layer = { name: "default", rules: defaultRules(), trusted: true };
const word = (set: RuleSet, tool: string, input: unknown) => decide({ tool, input }, set, CTX, "claude").action;

describe("toolNamePatterns in a rules file", () => {
  it("reads {tool, reason, ask, id, unless, when}", () => {
    const r = rules("toolNamePatterns:\n  - id: no-merge\n    tool: 'mcp__github__merge_*'\n    reason: merging is for a human\n    ask: true\n");
    assert.equal(r.toolNamePatterns?.length, 1);
    assert.equal(r.toolNamePatterns![0]!.id, "no-merge");
    assert.equal(word(r, "mcp__github__merge_pull_request", { owner: "a", repo: "b", pullNumber: 3 }), "ask");
    assert.equal(word(r, "mcp__github__get_pull_request", { owner: "a", repo: "b", pullNumber: 3 }), "allow");
    // The snake_case form of a camelCase name matches too.
    assert.equal(word(r, "mcp__github__mergePullRequest", {}), "ask");
  });
  it("a non-MCP tool is judged by its name too", () => {
    const r = rules("toolNamePatterns:\n  - tool: 'WebFetch'\n    reason: no fetching here\n");
    assert.equal(word(r, "WebFetch", { url: "https://example.com" }), "block");
  });
  it("diagnostics: invalid glob, missing reason, duplicate id, unknown key with a quick fix, duplicate entry", () => {
    const codes = (text: string) => parseRules(text).diagnostics.map((d) => d.code);
    assert.deepEqual(codes("toolNamePatterns:\n  - tool: 'mcp__a b'\n    reason: x\n"), ["invalid-glob"]);
    assert.deepEqual(codes("toolNamePatterns:\n  - tool: 'mcp__a__*'\n"), ["missing-reason"]);
    assert.deepEqual(codes("bashToolPatterns:\n  - id: same\n    pattern: x\n    reason: x\ntoolNamePatterns:\n  - id: same\n    tool: 'mcp__a__*'\n    reason: x\n"), ["duplicate-id"]);
    const unknown = parseRules("toolNamePatterns:\n  - tool: 'mcp__a__*'\n    reasn: x\n    reason: y\n").diagnostics;
    assert.equal(unknown[0]!.code, "unknown-key");
    assert.equal(unknown[0]!.fix?.newText, "reason");
    assert.ok(codes("toolNamePatterns:\n  - tool: 'mcp__a__*'\n    reason: x\n  - tool: 'mcp__a__*'\n    reason: y\n").includes("duplicate"));
    assert.deepEqual(codes("toolNamePatterns:\n  - tool: 'mcp__a__*'\n    reason: x\n    when: sometimes\n"), ["wrong-type"]);
  });
});

describe("toolNamePatterns in layers", () => {
  const drop = { tool: "mcp__kubernetes__kubectl_delete", input: { resourceType: "namespace", name: "production" } };
  it("the defaults ask for a named remote destroy; a user's disable: by id switches it off, a workspace's only when trusted", () => {
    assert.equal(word(mergeLayers([floor]), drop.tool, drop.input), "ask");
    const off = rules("disable: [mcp-destroy-resource]\n");
    assert.equal(word(mergeLayers([{ name: "user", rules: off, trusted: true }, floor]), drop.tool, drop.input), "allow");
    assert.equal(word(mergeLayers([{ name: "workspace", rules: off, trusted: false }, floor]), drop.tool, drop.input), "ask");
  });
  it("allow: {tool: mcp__devdb__*} lifts a whole throwaway server — its SQL and its name rules — and nothing else", () => {
    const user = rules("allow:\n  - tool: 'mcp__devdb__*'\n    reason: a throwaway database rebuilt by the seed script\n");
    const merged = mergeLayers([{ name: "user", rules: user, trusted: true }, floor]);
    const dropTable = decide({ tool: "mcp__devdb__execute_sql", input: { sql: "DROP TABLE users" } }, merged, CTX, "claude");
    assert.equal(dropTable.action, "allow");
    assert.equal(dropTable.exception?.text, "mcp__devdb__*");
    assert.equal(word(merged, "mcp__devdb__drop_table", { table: "users" }), "allow");
    // Another server keeps its guard; a zero-access path is never lifted.
    assert.equal(word(merged, "mcp__proddb__execute_sql", { sql: "DROP TABLE users" }), "block");
    assert.equal(word(merged, "mcp__devdb__read_file", { path: ".env" }), "block");
    // An untrusted workspace file's tool exception does nothing.
    assert.equal(word(mergeLayers([{ name: "workspace", rules: user, trusted: false }, floor]), "mcp__devdb__execute_sql", { sql: "DROP TABLE users" }), "block");
    assert.deepEqual(looseningItems(user), ["allow:tool:mcp__devdb__*:"]);
  });
});

describe("an MCP call as people see it", () => {
  it("server · tool, for Claude Code's and Gemini's spellings", () => {
    assert.equal(toolLabel("mcp__postgres__execute_sql"), "postgres · execute_sql");
    assert.equal(toolLabel("mcp__sequential-thinking__sequentialthinking"), "sequential-thinking · sequentialthinking");
    assert.equal(toolLabel("mcp_db_execute_sql"), "db · execute_sql");
    assert.equal(toolLabel("Bash"), "Bash");
    assert.equal(mcpName("mcp__broken"), undefined);
  });
  it("the target is the arguments that run or touch something, never data nor a secret", () => {
    const input = { sql: "DROP TABLE users;", password: "hunter2", note: "body text", files: [{ path: "a.txt", content: "secret" }] };
    const target = describeTarget({ tool: "mcp__db__execute_sql", input });
    assert.equal(target, "sql: DROP TABLE users;\npath: a.txt");
    assert.ok(!target.includes("hunter2") && !target.includes("body text") && !target.includes("secret"));
  });
  it("Explain decides a feed entry again from its target: the same rule, and the match points into the target", () => {
    const input = { sql: "SELECT 1;\nDROP TABLE users;" };
    const first = decide({ tool: "mcp__db__execute_sql", input }, defaultRules(), CTX, "claude");
    const target = describeTarget({ tool: "mcp__db__execute_sql", input });
    const again = decide(mcpCallFromTarget("mcp__db__execute_sql", target), defaultRules(), CTX, "claude");
    assert.equal(again.rule?.id, "sql-drop-table");
    assert.equal(again.rule?.id, first.rule?.id);
    assert.equal(target.slice(first.match!.start, first.match!.end), first.match!.text);
    assert.equal(again.match?.text, "DROP TABLE users;");
  });
});
