// MCP tool calls judged by what their arguments do where the tool runs them (issue 23, family 8):
// SQL through the same rules as `psql -c`, commands through the shell analysis, paths through the
// path rules, the tool's name verb for destroys of named remote resources. Everyday work first:
// half of each table is calls that must pass under the embedded defaults.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import type { Action, Verdict } from "../../src/engine/types";
import { claudeBody, repoRoot } from "./support";

const CTX = { cwd: "/home/dev/shop", home: "/home/dev" };
const judge = (tool: string, input: unknown): Verdict => decide({ tool, input }, defaultRules(), CTX, "claude");

type Row = [tool: string, input: Record<string, unknown>];

const EVERYDAY: Row[] = [
  ["mcp__postgres__execute_sql", { sql: "SELECT id, email FROM users WHERE id = 42" }],
  ["mcp__postgres__query", { query: "select count(*) from orders" }],
  ["mcp__supabase__execute_sql", { project_id: "abc", query: "INSERT INTO todos (title) VALUES ('buy milk')" }],
  ["mcp__postgres__execute_sql", { sql: "DELETE FROM sessions WHERE expires_at < now()" }],
  ["mcp__postgres__execute_sql", { sql: "UPDATE users SET name = 'Ann' WHERE id = 3; SELECT * FROM users WHERE id = 3" }],
  ["mcp__postgres__list_tables", {}],
  ["mcp__postgres__describe_table", { table: "users" }],
  ["mcp__kubernetes__kubectl_get", { resourceType: "pods", namespace: "default" }],
  ["mcp__kubernetes__kubectl_logs", { resourceType: "pod", name: "api-7f9c", namespace: "default" }],
  ["mcp__filesystem__read_file", { path: "README.md" }],
  ["mcp__filesystem__read_multiple_files", { paths: ["README.md", "src/index.ts"] }],
  ["mcp__filesystem__write_file", { path: "src/new.ts", content: "rm -rf / ; DROP TABLE users;" }],
  ["mcp__filesystem__list_directory", { path: "src" }],
  ["mcp__playwright__browser_navigate", { url: "http://localhost:3000" }],
  ["mcp__playwright__browser_click", { element: "Delete account button", ref: "e12" }],
  ["mcp__playwright__browser_type", { element: "search box", ref: "e3", text: "rm -rf ~" }],
  ["mcp__context7__get-library-docs", { context7CompatibleLibraryID: "/vercel/next.js", topic: "routing" }],
  ["mcp__fetch__fetch", { url: "https://example.com/docs" }],
  ["mcp__sequential-thinking__sequentialthinking", { thought: "DROP TABLE users would lose data; rm -rf ~ too", thoughtNumber: 1 }],
  ["mcp__memory__create_entities", { entities: [{ name: "db", observations: ["DROP TABLE is dangerous"] }] }],
  ["mcp__github__add_issue_comment", { owner: "acme", repo: "site", issue_number: 3, body: "run `rm -rf node_modules` then DROP TABLE tmp" }],
  ["mcp__github__search_code", { query: "DROP TABLE users" }],
  ["mcp__github__list_pull_requests", { owner: "acme", repo: "site" }],
  ["mcp__mongodb__delete_many", { database: "app", collection: "sessions", filter: { expired: true } }],
  ["mcp__redis__delete", { keys: ["session:1", "session:2"] }],
  ["mcp__shell__run", { cmd: "ls -la" }],
  ["mcp__exec__run_command", { command: "npm test" }],
  ["mcp__exec__spawn", { argv: ["git", "status"] }],
];

const REFUSED: [Row, Exclude<Action, "allow">][] = [
  [["mcp__postgres__execute_sql", { sql: "DROP TABLE users;" }], "block"],
  [["mcp__postgres__execute_sql", { sql: "delete from users" }], "block"],
  [["mcp__postgres__execute_sql", { sql: "SELECT 1; DROP TABLE users" }], "block"],
  [["mcp__postgres__execute_sql", { sql: "/* tidy up */ drop table users" }], "block"],
  [["mcp__postgres__query", { query: "TRUNCATE orders" }], "block"],
  [["mcp__pg__run", { statement: "DROP DATABASE prod" }], "block"],
  [["mcp__supabase__apply_migration", { project_id: "abc", name: "cleanup", query: "DROP TABLE users" }], "block"],
  [["mcp__shell__run", { cmd: "rm -rf ~" }], "block"],
  [["mcp__desktop-commander__execute_command", { command: "rm -rf ~" }], "block"],
  [["mcp__exec__spawn", { argv: ["rm", "-rf", "/home/dev"] }], "block"],
  [["mcp__filesystem__read_file", { path: ".env" }], "block"],
  [["mcp__filesystem__read_multiple_files", { paths: ["README.md", ".env"] }], "block"],
  [["mcp__kubernetes__kubectl_delete", { resourceType: "namespace", name: "production" }], "ask"],
  [["mcp__github__delete_repository", { owner: "acme", repo: "site" }], "ask"],
  [["mcp__mongodb__delete_many", { database: "app", collection: "users", filter: {} }], "block"],
  [["mcp__mongodb__drop_collection", { database: "app", collection: "users" }], "ask"],
  [["mcp__elasticsearch__delete_index", { index: "*" }], "block"],
  [["mcp__redis__flushall", {}], "block"],
];

describe("MCP calls (judged by their arguments, under the embedded defaults)", () => {
  describe("everyday work passes", () => {
    for (const [tool, input] of EVERYDAY) {
      it(`${tool} ${JSON.stringify(input)}`, () => {
        const v = judge(tool, input);
        assert.equal(v.action, "allow", `${v.action}: ${v.reason}`);
      });
    }
  });
  describe("damage is refused", () => {
    for (const [[tool, input], action] of REFUSED) {
      it(`${action}: ${tool} ${JSON.stringify(input)}`, () => {
        const v = judge(tool, input);
        assert.equal(v.action, action, `${v.action}: ${v.reason}`);
        assert.ok(v.reason.length > 0);
      });
    }
  });
  it("SQL is judged by the same rule as psql -c (the same id)", () => {
    const viaPsql = decide({ tool: "bash", input: { command: `psql -c "DROP TABLE users"` } }, defaultRules(), CTX);
    const viaMcp = judge("mcp__postgres__execute_sql", { sql: "DROP TABLE users" });
    assert.equal(viaMcp.rule?.id, viaPsql.rule?.id);
    assert.equal(viaMcp.rule?.id, "sql-drop-table");
  });
  it("Explain shows the argument that matched, never a secret's value", () => {
    const v = judge("mcp__postgres__execute_sql", { sql: "DROP TABLE users", password: "hunter2-very-secret", connection: { apiKey: "sk-live-123" } });
    assert.equal(v.action, "block");
    assert.ok(v.match?.text.includes("DROP TABLE users"), JSON.stringify(v.match));
    assert.ok(!JSON.stringify(v).includes("hunter2"), JSON.stringify(v));
    assert.ok(!JSON.stringify(v).includes("sk-live"), JSON.stringify(v));
  });
  it("UPDATE without WHERE: the same rule through psql -c and an MCP SQL tool", () => {
    const viaPsql = decide({ tool: "bash", input: { command: `psql -c "UPDATE users SET role = 'admin'"` } }, defaultRules(), CTX);
    const viaMcp = judge("mcp__dbhub__run_sql", { sql: "UPDATE users SET role = 'admin';" });
    assert.equal(viaPsql.rule?.id, "sql-update-without-where");
    assert.equal(viaMcp.rule?.id, viaPsql.rule?.id);
  });
  describe("families from the outside corpus (second pass)", () => {
    const rows: [tool: string, input: Record<string, unknown>, want: Action][] = [
      // UPDATE without WHERE: the same rule as psql -c, through an MCP SQL tool.
      ["mcp__postgres__query", { query: "update accounts set balance = 0" }, "block"],
      ["mcp__postgres__query", { query: "update accounts set balance = 0 where id = 7" }, "allow"],
      // Files in a remote repository are not local files: a named destroy there is put to the user.
      ["mcp__gitlab__delete_file", { project_id: "acme/site", file_path: "docs/old.md", commit_message: "rm" }, "ask"],
      ["mcp__github__get_file_contents", { owner: "acme", repo: "site", path: "README.md" }, "allow"],
      ["mcp__filesystem__delete_file", { path: "notes/old.md" }, "allow"],
      // cancel, archive, revoke: a hosted resource ends.
      ["mcp__stripe__cancel_payment_intent", { payment_intent: "pi_123" }, "ask"],
      ["mcp__linear__archive_issue", { id: "ENG-12" }, "ask"],
      ["mcp__stripe__list_subscriptions", { customer: "cus_1" }, "allow"],
      // Memory and browser tools: their text and scripts are data; no opinion.
      ["mcp__memory__delete_observations", { deletions: [{ entityName: "db", observations: ["x"] }] }, "allow"],
      ["mcp__memory__delete_relations", { relations: [{ from: "a", to: "b", relationType: "uses" }] }, "allow"],
      ["mcp__playwright__browser_evaluate", { function: "() => document.body.remove()", script: "rm -rf ~" }, "allow"],
      ["mcp__puppeteer__puppeteer_evaluate", { script: "localStorage.clear()" }, "allow"],
      // …but a file a browser uploads is still read from this machine.
      ["mcp__playwright__browser_file_upload", { paths: [".env"] }, "block"],
    ];
    for (const [tool, input, want] of rows) {
      it(`${want}: ${tool} ${JSON.stringify(input)}`, () => {
        const v = judge(tool, input);
        assert.equal(v.action, want, `${v.action}: ${v.reason}`);
      });
    }
  });
  it("Gemini's spelling mcp_<server>_<tool> is an MCP call too", () => {
    assert.equal(decide({ tool: "mcp_db_execute_sql", input: { sql: "DROP TABLE users" } }, defaultRules(), CTX, "cli").action, "block");
    assert.equal(decide({ tool: "mcp_db_execute_sql", input: { sql: "SELECT 1" } }, defaultRules(), CTX, "cli").action, "allow");
  });
});

describe("MCP calls through every entry point (one decision path)", () => {
  const CLI = path.join(repoRoot, "dist/cli.js");
  let dir: string;
  let home: string;
  const guards: Guard[] = [];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-mcp-"));
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-mcp-home-"));
  });
  after(() => {
    for (const g of guards.splice(0)) g.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });
  it("check reads {tool: mcp__…, input} and refuses DROP TABLE, with the statement as the match", () => {
    const r = spawnSync(process.execPath, [CLI, "check", "--cwd", dir, "--home", home], {
      input: JSON.stringify({ tool: "mcp__postgres__execute_sql", input: { sql: "DROP TABLE users;", password: "hunter2" } }),
      encoding: "utf8",
      env: { ...process.env, DAMAGE_CONTROL_STATE_DIR: home, HOME: home },
      timeout: 20_000,
    });
    assert.equal(r.stdout.split("\n")[0], "block", r.stdout + r.stderr);
    assert.match(r.stdout, /sql-drop-table/);
    assert.match(r.stdout, /matched: DROP TABLE users;/);
    assert.ok(!r.stdout.includes("hunter2"));
  });
  it("Claude Code's hook payload (with its mcp_server field, or without it) is judged the same", async () => {
    const g = new Guard({ folders: [dir], home, ledger: false });
    guards.push(g);
    const payload = { hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name: "mcp__db__execute_sql", tool_input: { sql: "DROP TABLE users;" }, tool_use_id: "t" };
    for (const p of [{ ...payload, mcp_server: { name: "db", source: "dynamic" } }, payload]) {
      const body = await claudeBody(g, p);
      const out = body.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string };
      assert.equal(out.permissionDecision, "deny", JSON.stringify(body));
      assert.match(out.permissionDecisionReason ?? "", /DROP TABLE/);
    }
    assert.deepEqual(await claudeBody(g, { ...payload, tool_input: { sql: "SELECT * FROM users" } }), {});
  });
});
