// The structured rules editor's model (src/views/panel/rules-draft.ts): rows read from the YAML,
// edits applied in place (comments, order, quoting of untouched entries kept), and the engine's
// own diagnostics mapped onto the row they fall on.
import * as assert from "node:assert/strict";
import { parseRules } from "../../src/engine/rules/parse";
import { applyEdit, checkDraft, readRows } from "../../src/views/panel/rules-draft";
import { listCount, type RuleEdit, type RuleList } from "../../src/views/panel/messages";
import { DEFAULT_RULES_TEXT } from "../../src/engine/rules/defaults";
import { ruleCounts } from "../../src/core/counts";

const TEXT = [
  "# top comment",
  "bashToolPatterns:",
  "  - pattern: '\\brm\\s+-rf'",
  "    reason: recursive rm # inline comment",
  "  # before push",
  "  - pattern: '\\bgit\\s+push\\b'",
  "    reason: pushing",
  "    ask: true",
  "zeroAccessPaths:",
  "  - .env",
  '  - "*.pem"',
  "noDeletePaths:",
  "",
].join("\n");

function edit(text: string, ...edits: RuleEdit[]): string {
  for (const e of edits) {
    const r = applyEdit(text, e, checkDraft(text).engine);
    assert.ok(r.ok, r.ok ? "" : r.message);
    text = r.text;
  }
  return text;
}

describe("panel rules draft", () => {
  it("reads the four lists as rows, with the line each starts on", () => {
    const { rows, readOnly } = readRows(TEXT);
    assert.equal(readOnly, undefined);
    assert.deepEqual(
      rows.map((r) => [r.list, r.value, r.reason, r.ask, r.line]),
      [
        ["bashToolPatterns", "\\brm\\s+-rf", "recursive rm", false, 2],
        ["bashToolPatterns", "\\bgit\\s+push\\b", "pushing", true, 5],
        ["zeroAccessPaths", ".env", undefined, undefined, 9],
        ["zeroAccessPaths", "*.pem", undefined, undefined, 10],
      ],
    );
  });

  it("an added row with an invalid regex carries the engine's exact diagnostic and its quick fix; the fix repairs it", () => {
    let text = edit(TEXT, { op: "add", list: "bashToolPatterns" }, { op: "set", list: "bashToolPatterns", index: 2, field: "value", value: "(unclosed" }, { op: "set", list: "bashToolPatterns", index: 2, field: "reason", value: "x" });
    const checked = checkDraft(text);
    const engine = parseRules(text).diagnostics;
    assert.equal(checked.diagnostics.hasErrors, true);
    assert.deepEqual(checked.diagnostics.rows.bashToolPatterns[0], []);
    assert.deepEqual(checked.diagnostics.rows.bashToolPatterns[1], []);
    const [d] = checked.diagnostics.rows.bashToolPatterns[2];
    assert.equal(d.code, "invalid-regex");
    assert.equal(d.message, engine.find((e) => e.code === "invalid-regex")!.message);
    // Changed on purpose (issue 38): the fix that keeps the rule's meaning (close the group), as in
    // the YAML editor, titled with what it still matches; no longer "escape the offending character".
    assert.equal(d.fixTitle, 'Close the group: (unclosed) — still matches "unclosed"');
    text = edit(text, { op: "fix", diagnostic: d.index });
    assert.equal(readRows(text).rows[2].value, "(unclosed)");
    assert.equal(checkDraft(text).diagnostics.hasErrors, false);
  });

  it("a slow regex is a warning on its row, not an error", () => {
    const text = edit(TEXT, { op: "set", list: "bashToolPatterns", index: 0, field: "value", value: "^(a+)+$" });
    const c = checkDraft(text);
    assert.equal(c.diagnostics.hasErrors, false);
    assert.deepEqual(c.diagnostics.rows.bashToolPatterns[0].map((d) => [d.code, d.severity]), [["slow-regex", "warning"]]);
  });

  it("edits keep the comments, the order and the quoting of untouched entries", () => {
    const text = edit(
      TEXT,
      { op: "set", list: "bashToolPatterns", index: 1, field: "ask", value: false },
      { op: "add", list: "noDeletePaths" },
      { op: "set", list: "noDeletePaths", index: 0, field: "value", value: "*.sqlite" },
      { op: "set", list: "zeroAccessPaths", index: 0, field: "value", value: ".env.local" },
      { op: "move", list: "bashToolPatterns", index: 1, to: 0 },
    );
    for (const line of ["# top comment", "    reason: recursive rm # inline comment", "  # before push", '  - "*.pem"', "  - .env.local", "  - '*.sqlite'"]) {
      assert.ok(text.split("\n").includes(line), `missing ${JSON.stringify(line)} in\n${text}`);
    }
    const parsed = parseRules(text);
    assert.equal(parsed.ok, true);
    assert.deepEqual(parsed.rules.bashToolPatterns.map((p) => [p.pattern, p.ask]), [["\\bgit\\s+push\\b", false], ["\\brm\\s+-rf", false]]);
    assert.deepEqual(parsed.rules.noDeletePaths.map((p) => p.path), ["*.sqlite"]);
    // The comment before the push rule moved with it.
    assert.ok(text.indexOf("# before push") < text.indexOf("git"), text);
  });

  it("an effect rule (issue 23) is a row whose value is its effect, edited in place", () => {
    const src = "bashToolPatterns:\n  - id: no-backup-deletes\n    effect: destroy backups\n    reason: keep them (list them)\n";
    const row = readRows(src).rows[0];
    assert.equal(row.value, "destroy backups");
    const text = edit(src, { op: "set", list: "bashToolPatterns", index: 0, field: "value", value: "destroy* backups" });
    assert.ok(text.includes("effect: destroy* backups"), text);
    assert.ok(!text.includes("pattern:"), text);
    assert.equal(parseRules(text).rules.bashToolPatterns[0].effect, "destroy* backups");
  });

  it("deleting a row removes only that entry", () => {
    const text = edit(TEXT, { op: "delete", list: "zeroAccessPaths", index: 0 });
    assert.deepEqual(parseRules(text).rules.zeroAccessPaths.map((p) => p.path), ["*.pem"]);
    assert.ok(text.startsWith("# top comment\n"));
  });

  it("an empty new path is an error on its row (Save is refused)", () => {
    const c = checkDraft(edit(TEXT, { op: "add", list: "readOnlyPaths" }));
    assert.equal(c.diagnostics.hasErrors, true);
    assert.deepEqual(c.diagnostics.rows.readOnlyPaths[0].map((d) => d.code), ["empty-path"]);
  });

  it("a file with YAML syntax errors is read-only in the structured editor, and edits are refused", () => {
    const broken = "bashToolPatterns:\n  - pattern: 'x\n";
    assert.match(readRows(broken).readOnly ?? "", /YAML syntax errors/);
    const r = applyEdit(broken, { op: "add", list: "noDeletePaths" });
    assert.equal(r.ok, false);
    assert.ok(checkDraft(broken).diagnostics.file.length > 0, "the syntax error is not shown");
  });

  it("starts an empty file", () => {
    const text = edit("", { op: "add", list: "zeroAccessPaths" }, { op: "set", list: "zeroAccessPaths", index: 0, field: "value", value: ".env" });
    assert.deepEqual(parseRules(text).rules.zeroAccessPaths.map((p) => p.path), [".env"]);
  });
  it("toolNamePatterns rows: read, added, edited as {tool, reason, ask} like the bash patterns", () => {
    const text = "toolNamePatterns:\n  - tool: 'mcp__github__merge_*'\n    reason: merging is for a human\n    ask: true\n";
    const { rows } = readRows(text);
    assert.deepEqual(rows.map((r) => [r.list, r.value, r.reason, r.ask]), [["toolNamePatterns", "mcp__github__merge_*", "merging is for a human", true]]);
    const next = edit(text, { op: "add", list: "toolNamePatterns" }, { op: "set", list: "toolNamePatterns", index: 1, field: "value", value: "mcp__*__delete_*" }, { op: "set", list: "toolNamePatterns", index: 1, field: "reason", value: "deleting needs a human" });
    const parsed = parseRules(next);
    assert.ok(parsed.ok, JSON.stringify(parsed.diagnostics));
    assert.deepEqual(parsed.rules.toolNamePatterns?.map((r) => [r.tool, r.reason, r.ask]), [["mcp__github__merge_*", "merging is for a human", true], ["mcp__*__delete_*", "deleting needs a human", false]]);
  });
});

describe("one count for a list (issue 38)", () => {
  it("the editor's heading counts a file's rules as the summary does: exclusions apart", () => {
    // The defaults as a rules file (what `npm start` writes): the editor's rows, the parsed rules.
    const rows = readRows(DEFAULT_RULES_TEXT).rows;
    const rules = parseRules(DEFAULT_RULES_TEXT).rules;
    const c = ruleCounts(rules);
    const of = (list: RuleList) => listCount(rows.filter((r) => r.list === list)).rules;
    assert.equal(of("zeroAccessPaths"), c.zeroAccess);
    assert.equal(of("readOnlyPaths"), c.readOnly);
    assert.equal(of("noDeletePaths"), c.noDelete);
    assert.equal(of("bashToolPatterns"), c.bashPatterns);
    assert.ok(listCount(rows.filter((r) => r.list === "zeroAccessPaths")).exclusions > 0, "the defaults have exclusions to count apart");
  });
});
