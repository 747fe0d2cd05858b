import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HOOK_EVENTS } from "../../src/engine/events";
import { renderClaudeAnswer } from "../../src/engine/agents/claude";
import { Guard } from "../../src/core/guard";
import { MAX_BODY_BYTES, startEndpoint, type Endpoint } from "../../src/hookserver/server";
import { request } from "./http-client";
import { DEFAULT_COUNTS } from "../support/default-counts";

const TOKEN = "t".repeat(43);

describe("endpoint over HTTP", () => {
  let dir: string;
  let guard: Guard;
  let ep: Endpoint;
  const post = (body: unknown, extra: { token?: string; path?: string } = {}) =>
    request(ep.port, { path: extra.path ?? "/claude/hook", token: extra.token ?? TOKEN, body: typeof body === "string" ? body : JSON.stringify(body) });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-endpoint-"));
    fs.mkdirSync(path.join(dir, ".pi"));
    fs.writeFileSync(
      path.join(dir, ".pi/damage-control-rules.yaml"),
      "bashToolPatterns:\n  - pattern: '\\brm\\s+-rf\\b'\n    reason: no rm -rf\n  - pattern: '\\bgit\\s+push\\b'\n    reason: pushing needs a human\n    ask: true\nzeroAccessPaths:\n  - .env\n",
    );
    guard = new Guard({ folders: [dir], home: "/home/dev" });
    ep = await startEndpoint({ guard, token: TOKEN, port: 0 });
  });
  after(async () => {
    await ep.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pre = (tool: string, input: unknown, event = "PreToolUse") => ({
    session_id: "s1",
    cwd: dir,
    hook_event_name: event,
    tool_name: tool,
    tool_input: input,
    tool_use_id: "toolu_1",
  });

  it("binds 127.0.0.1 only", () => {
    const addr = ep.server.address();
    assert.ok(addr && typeof addr === "object" && addr.address === "127.0.0.1");
  });

  it("PreToolUse: a refused command gets the deny shape with the rule and the instruction", async () => {
    const r = await post(pre("Bash", { command: "rm -rf data" }));
    assert.equal(r.status, 200);
    const out = (r.json as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput;
    assert.equal(out.hookEventName, "PreToolUse");
    assert.equal(out.permissionDecision, "deny");
    assert.match(out.permissionDecisionReason, /no rm -rf/);
    assert.match(out.permissionDecisionReason, /Do not work around this; report it/);
  });

  it("PreToolUse: a harmless command gets {} (no opinion), never allow", async () => {
    const r = await post(pre("Bash", { command: "echo hello" }));
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, {});
  });

  it("PreToolUse: an ask with nobody to ask is a deny that says so", async () => {
    const r = await post(pre("Bash", { command: "git push origin main" }));
    const out = (r.json as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput;
    assert.equal(out.permissionDecision, "deny");
    assert.match(out.permissionDecisionReason, /pushing needs a human .*; nobody could confirm it/);
  });

  it("PermissionRequest: deny in decision.behavior", async () => {
    const r = await post(pre("Read", { file_path: path.join(dir, ".env") }, "PermissionRequest"));
    const out = (r.json as { hookSpecificOutput: { decision: { behavior: string; message: string } } }).hookSpecificOutput;
    assert.equal(out.decision.behavior, "deny");
    assert.match(out.decision.message, /zero-access/);
  });

  it("every event of the table gets its exact JSON", async () => {
    for (const e of HOOK_EVENTS) {
      const payload = e.enforce === "rules" ? pre("Bash", { command: "rm -rf x" }, e.name) : { session_id: "s", cwd: dir, hook_event_name: e.name };
      const r = await post(payload);
      assert.equal(r.status, 200, e.name);
      const expected = e.enforce === "rules" ? renderClaudeAnswer(e.name, { kind: "deny", reason: "" }) : {};
      // Same shape as the renderer's deny (reason text aside) for enforced events; {} for the rest.
      assert.deepEqual(JSON.parse(r.text.replace(/"(permissionDecisionReason|message|reason)":"[^"]*"/g, '"$1":""')), expected, e.name);
    }
  });

  it("an unknown event is denied in the PreToolUse shape", async () => {
    const r = await post({ session_id: "s", cwd: dir, hook_event_name: "SomethingNew" });
    const out = (r.json as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput;
    assert.equal(out.hookEventName, "SomethingNew");
    assert.equal(out.permissionDecision, "deny");
  });

  it("pi route: {toolName, input, cwd} → {block, reason}", async () => {
    const block = await post({ toolName: "read", input: { path: ".env" }, cwd: dir }, { path: "/pi/tool-call" });
    assert.equal(block.status, 200);
    assert.equal((block.json as { block: boolean }).block, true);
    assert.match((block.json as { reason: string }).reason, /zero-access/);
    const allow = await post({ toolName: "read", input: { path: "README.md" }, cwd: dir }, { path: "/pi/tool-call" });
    assert.deepEqual(allow.json, { block: false });
    const bad = await post({ input: {} }, { path: "/pi/tool-call" });
    assert.equal((bad.json as { block: boolean }).block, true);
  });

  it("generic route POST /hook/<agent>: the same answers as the aliases; an agent without an adapter is refused", async () => {
    const viaAlias = await post(pre("Bash", { command: "rm -rf x" }));
    const viaGeneric = await post(pre("Bash", { command: "rm -rf x" }), { path: "/hook/claude" });
    assert.equal(viaGeneric.status, 200);
    assert.deepEqual(viaGeneric.json, viaAlias.json);
    assert.deepEqual((await post({ toolName: "read", input: { path: ".env" }, cwd: dir }, { path: "/hook/pi" })).json, (await post({ toolName: "read", input: { path: ".env" }, cwd: dir }, { path: "/pi/tool-call" })).json);
    assert.equal((await post(pre("Bash", { command: "ls" }), { path: "/hook/nobody" })).status, 404);
    assert.equal((await post(pre("Bash", { command: "ls" }), { path: "/hook/" })).status, 404);
  });

  it("health: version and counts, no secrets", async () => {
    const r = await request(ep.port, { method: "GET", path: "/health", token: TOKEN });
    assert.equal(r.status, 200);
    const h = r.json as { ok: boolean; folders: { counts: { total: number; bashPatterns: number; ask: number } }[] };
    assert.equal(h.ok, true);
    // Changed on purpose (issue 15): the workspace file adds to the default floor (was: 3 rules alone).
    // Hand-counted: the defaults (test/support/default-counts.ts) + the file's rm and push rules
    // (push asks); its .env is a default already.
    const d = DEFAULT_COUNTS;
    assert.deepEqual(h.folders[0].counts, { total: d.total + 2, bashPatterns: d.bashPatterns + 2, ask: d.ask + 1, zeroAccess: d.zeroAccess, readOnly: d.readOnly, noDelete: d.noDelete });
    assert.ok(!r.text.includes(TOKEN));
  });

  describe("refusals of bad requests (and the server keeps serving)", () => {
    afterEach(async () => {
      const r = await request(ep.port, { method: "GET", path: "/health", token: TOKEN });
      assert.equal(r.status, 200, "still serving");
    });
    it("no token → 401 with a JSON reason", async () => {
      const r = await request(ep.port, { path: "/claude/hook", body: JSON.stringify(pre("Bash", { command: "ls" })) });
      assert.equal(r.status, 401);
      assert.match((r.json as { error: string }).error, /bearer token/);
    });
    it("wrong token → 401", async () => {
      const r = await post(pre("Bash", { command: "ls" }), { token: "x".repeat(43) });
      assert.equal(r.status, 401);
    });
    it("a Host other than 127.0.0.1/localhost with our port → 403 (DNS rebinding)", async () => {
      for (const host of ["evil.example:" + ep.port, `127.0.0.1:${ep.port + 1}`, "127.0.0.1"]) {
        const r = await request(ep.port, { path: "/claude/hook", token: TOKEN, headers: { host }, body: "{}" });
        assert.equal(r.status, 403, host);
      }
      const ok = await request(ep.port, { path: "/health", method: "GET", token: TOKEN, headers: { host: `localhost:${ep.port}` } });
      assert.equal(ok.status, 200);
    });
    it("malformed JSON → 400, never an allow", async () => {
      const r = await post("{not json");
      assert.equal(r.status, 400);
    });
    it("a body over 1 MiB → 413", async () => {
      const r = await post("x".repeat(MAX_BODY_BYTES + 10));
      assert.equal(r.status, 413);
    });
    it("unknown route → 404, wrong method → 405", async () => {
      assert.equal((await post({}, { path: "/nope" })).status, 404);
      assert.equal((await request(ep.port, { method: "GET", path: "/claude/hook", token: TOKEN })).status, 405);
    });
    it("no CORS headers, even on a preflight", async () => {
      const r = await request(ep.port, { method: "OPTIONS", path: "/claude/hook", token: TOKEN, headers: { origin: "http://evil.example", "access-control-request-method": "POST" } });
      assert.notEqual(r.status, 200);
      assert.ok(!Object.keys(r.headers).some((h) => h.startsWith("access-control-")));
    });
    it("a JSON body that is not an object → deny", async () => {
      for (const body of ["null", "[]", "42", '"str"']) {
        const r = await post(body);
        assert.equal(r.status, 200);
        assert.equal((r.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision, "deny", body);
      }
    });
  });

  it("follows the rules file as it changes on disk, without a restart", async () => {
    const file = path.join(dir, ".pi/damage-control-rules.yaml");
    const before = fs.readFileSync(file, "utf8");
    try {
      fs.writeFileSync(file, before + "  - secrets.txt\n");
      const r = await post(pre("Read", { file_path: path.join(dir, "secrets.txt") }));
      assert.equal((r.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision, "deny");
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  it("writes each decision to the audit ledger", async () => {
    await post(pre("Bash", { command: "rm -rf ledger-check" }));
    await guard.drain();
    const lines = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const last = lines.filter((l) => l.target === "rm -rf ledger-check").pop();
    assert.equal(last.decision, "block");
    assert.equal(last.agent, "claude");
    assert.equal(last.event, "PreToolUse");
    assert.equal(last.tool, "Bash");
    assert.ok(fs.readFileSync(path.join(dir, ".damage-control/.gitignore"), "utf8").includes("*"));
  });
});
