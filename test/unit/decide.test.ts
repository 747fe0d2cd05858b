import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { decide } from "../../src/engine/decide";
import { parseRules } from "../../src/engine/rules/parse";
import type { DecideContext } from "../../src/engine/types";
import { fixture } from "./support";

const rules = parseRules(fs.readFileSync(fixture("corpus/rules.yaml"), "utf8")).rules;
const ctx: DecideContext = { cwd: "/home/dev/plume-factory", home: "/home/dev" };
const act = (tool: string, input: Record<string, unknown>, c: DecideContext = ctx) => decide({ tool, input }, rules, c).action;

describe("decide", () => {
  describe("the reference policy's own gate", () => {
    it("read PLAN.md → allow", () => assert.equal(act("read", { path: "PLAN.md" }), "allow"));
    it("read .env → block", () => assert.equal(act("read", { path: ".env" }), "block"));
    it("edit adws/adw_modules/runner.py → block", () => assert.equal(act("edit", { path: "adws/adw_modules/runner.py", edits: [] }), "block"));
    it("write src/editor.ts → allow", () => assert.equal(act("write", { path: "src/editor.ts", content: "x" }), "allow"));
    it('bash "bun test" → allow', () => assert.equal(act("bash", { command: "bun test" }), "allow"));
    it('bash "git checkout -- ." → ask', () => assert.equal(act("bash", { command: "git checkout -- ." }), "ask"));
    it('bash "rm -rf adws/adw_data/sessions" → block', () => assert.equal(act("bash", { command: "rm -rf adws/adw_data/sessions" }), "block"));
    it('bash "echo ok > PLAN.md" → block', () => assert.equal(act("bash", { command: "echo ok > PLAN.md" }), "block"));
  });

  describe("file tools in both vocabularies", () => {
    it("Claude Code Read/Write/Edit with absolute file_path", () => {
      assert.equal(act("Read", { file_path: "/home/dev/plume-factory/.env" }), "block");
      assert.equal(act("Write", { file_path: "/home/dev/plume-factory/PLAN.md", content: "" }), "block");
      assert.equal(act("Edit", { file_path: "/home/dev/plume-factory/README.md", old_string: "a", new_string: "b" }), "allow");
      assert.equal(act("Read", { file_path: "/home/dev/plume-factory/.env.example" }), "allow");
    });
    it("NotebookEdit and MultiEdit are writes", () => {
      assert.equal(act("NotebookEdit", { notebook_path: "/home/dev/plume-factory/adws/adw_modules/a.ipynb", new_source: "" }), "block");
      assert.equal(act("MultiEdit", { file_path: "/home/dev/plume-factory/adws/adw_build.py", edits: [] }), "block");
    });
    it("pi strips one leading @ from paths", () => {
      assert.equal(act("read", { path: "@.env" }), "block");
    });
    it("zero-access: no listing or searching either", () => {
      assert.equal(act("ls", { path: "~/.aws" }), "block");
      assert.equal(act("find", { pattern: "*.json", path: "~/.aws" }), "block");
      assert.equal(act("Glob", { pattern: "*", path: "/home/dev/.ssh" }), "block");
      assert.equal(act("Grep", { pattern: "SECRET", path: ".env" }), "block");
      assert.equal(act("Glob", { pattern: "**/.env" }), "block", "a glob that names a secret");
      assert.equal(act("Glob", { pattern: "/home/dev/.ssh/*" }), "block", "a glob rooted in a secret folder");
    });
    it("searching a folder is not reading the secrets that may be in it", () => {
      assert.equal(act("Grep", { pattern: "process.env", path: "/home/dev/plume-factory/src" }), "allow");
      assert.equal(act("Glob", { pattern: "src/**/*.ts" }), "allow");
      assert.equal(act("ls", {}), "allow");
    });
    it("read-only allows reading; no-delete allows writing", () => {
      assert.equal(act("Read", { file_path: "/home/dev/plume-factory/adws/adw_modules/runner.py" }), "allow");
      assert.equal(act("write", { path: "specs/new.md", content: "" }), "allow");
    });
    it("tools without rules get no opinion", () => {
      assert.equal(act("WebFetch", { url: "https://example.com" }), "allow");
      assert.equal(act("mcp__github__create_issue", { title: "x" }), "allow");
    });
    it("a known tool with a malformed input is refused, not guessed", () => {
      assert.equal(act("Bash", { cmd: "rm -rf /" }), "block");
      assert.equal(act("Read", { file_path: 42 }), "block");
      assert.equal(act("Write", {}), "block");
      assert.equal(decide({ tool: "Bash", input: null }, rules, ctx).action, "block");
    });
  });

  describe("verdicts", () => {
    it("the strongest verdict wins: an ask rule does not hide a block", () => {
      const r = parseRules("bashToolPatterns:\n  - pattern: git\n    reason: careful\n    ask: true\n  - pattern: 'git reset --hard'\n    reason: destroys work\n").rules;
      const v = decide({ tool: "bash", input: { command: "git reset --hard" } }, r, ctx);
      assert.equal(v.action, "block");
      assert.equal(v.rule!.text, "git reset --hard");
    });
    it("an ask rule does not hide a protected path", () => {
      const r = parseRules("bashToolPatterns:\n  - pattern: cat\n    reason: careful\n    ask: true\nzeroAccessPaths:\n  - .env\n").rules;
      assert.equal(decide({ tool: "bash", input: { command: "cat .env" } }, r, ctx).action, "block");
    });
    it("a block reason names the rule and says not to work around it", () => {
      const v = decide({ tool: "read", input: { path: ".env" } }, rules, ctx);
      assert.match(v.reason, /zero-access path ".env"/);
      assert.match(v.reason, /Do not work around this; report it/);
      assert.equal(v.rule!.kind, "zeroAccess");
      assert.equal(v.rule!.line, 42);
    });
    it("a bash verdict carries the matched part of the command", () => {
      const v = decide({ tool: "bash", input: { command: "git checkout -- ." } }, rules, ctx);
      assert.equal(v.action, "ask");
      assert.ok(v.match && v.match.text.includes("git checkout"));
    });
  });

  describe("symlinks", () => {
    it("a link to a protected file is the protected file", () => {
      const realpath = (p: string) => (p === "/home/dev/plume-factory/innocent.txt" ? "/home/dev/plume-factory/.env" : p);
      assert.equal(act("read", { path: "innocent.txt" }, { ...ctx, realpath }), "block");
      assert.equal(act("read", { path: "other.txt" }, { ...ctx, realpath }), "allow");
    });
  });
});
