// The agent must not be able to switch the guard off.
import * as assert from "node:assert/strict";
import { claudeBody, piBody } from "./support";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { addOurHooks } from "../../src/engine/claude-settings";

describe("tamper protection", () => {
  let dir: string;
  let home: string;
  let guard: Guard;
  const ourSettings = () => addOurHooks({ permissions: { allow: ["Bash(ls)"] } }, ["PreToolUse"], { kind: "http", url: "http://127.0.0.1:42424" });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-tamper-"));
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-tamper-home-"));
    fs.mkdirSync(path.join(dir, ".claude"));
    fs.writeFileSync(path.join(dir, ".claude/settings.local.json"), JSON.stringify(ourSettings(), null, 2));
    guard = new Guard({ folders: [dir], home });
  });
  afterEach(() => {
    guard.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  const bash = async (command: string) => piBody(guard, { toolName: "bash", input: { command }, cwd: dir });
  const tool = async (toolName: string, input: Record<string, unknown>) => piBody(guard, { toolName, input, cwd: dir });

  describe("the default rules make the guard's own files read-only for the agent", () => {
    it("Claude Code settings files", async () => {
      assert.equal((await tool("write", { path: ".claude/settings.local.json", content: "{}" })).block, true);
      assert.equal((await tool("edit", { path: ".claude/settings.json", edits: [] })).block, true);
      assert.equal((await bash("echo '{}' > .claude/settings.local.json")).block, true);
      assert.equal((await bash("rm .claude/settings.local.json")).block, true);
      assert.equal((await bash("sed -i 's/PreToolUse/X/' .claude/settings.local.json")).block, true);
      assert.equal((await tool("read", { path: ".claude/settings.local.json" })).block, false, "reading is fine");
    });
    it("the rules file, by any tool and by bash", async () => {
      assert.equal((await tool("write", { path: ".pi/damage-control-rules.yaml", content: "" })).block, true);
      assert.equal((await bash("printf 'bashToolPatterns: []' > .pi/damage-control-rules.yaml")).block, true);
      assert.equal((await bash("mv .pi/damage-control-rules.yaml /tmp/")).block, true);
      assert.equal((await bash("cd .pi && truncate -s 0 damage-control-rules.yaml")).block, true);
    });
    it("the installed pi extension, its local guard and pi's settings", async () => {
      assert.equal((await tool("write", { path: path.join(home, ".pi/agent/damage-control/pi-extension.js"), content: "" })).block, true);
      assert.equal((await bash(`rm -f ~/.pi/agent/damage-control/pi-extension.js`)).block, true);
      assert.equal((await tool("write", { path: path.join(home, ".pi/agent/damage-control/pi-local-guard.js"), content: "module.exports = {}" })).block, true);
      assert.equal((await bash(`cp /tmp/permissive.js ~/.pi/agent/damage-control/pi-local-guard.js`)).block, true);
      assert.equal((await tool("edit", { path: "~/.pi/agent/settings.json", edits: [] })).block, true);
    });
    it("the audit ledger and the guard's state", async () => {
      assert.equal((await bash("rm .damage-control/audit.jsonl")).block, true);
      assert.equal((await bash("echo > .damage-control/last-good-rules.yaml")).block, true);
    });
    it("a custom rules file path is protected too", async () => {
      const g = new Guard({ folders: [dir], home, rulesPath: "policy/guard.yaml" });
      try {
        assert.equal((await piBody(g, { toolName: "write", input: { path: "policy/guard.yaml", content: "" }, cwd: dir })).block, true);
      } finally {
        g.close();
      }
    });
  });

  describe("the audit ledger is zero-access to the agent (issue 35)", () => {
    it("reading it, copying it or writing it is refused; a search of the project still passes", async () => {
      // A Guard keeps the guard's own paths (layer-files.ts guardOwnPaths): the ledger among them.
      for (const c of ["cat .damage-control/audit.jsonl", "tail -n 50 .damage-control/audit.jsonl.1", "cp .damage-control/audit.jsonl /tmp/l", "cd .damage-control && grep curl audit.jsonl", "echo '{}' >> .damage-control/audit.jsonl", "rm .damage-control/audit.jsonl"]) {
        assert.equal((await bash(c)).block, true, c);
      }
      assert.equal((await tool("read", { path: ".damage-control/audit.jsonl" })).block, true);
      assert.equal((await bash("grep -rn TODO .")).block, false, "a recursive search of the project");
      assert.equal((await tool("find", { pattern: "**/*.md" })).block, false, "a name search of the project");
    });
  });

  describe("Claude Code ConfigChange", () => {
    const change = (p: Record<string, unknown>) => claudeBody(guard, { hook_event_name: "ConfigChange", session_id: "s", cwd: dir, ...p });
    const denied = (body: unknown) => (body as { decision?: string }).decision === "block";

    it("a change that drops our hooks is blocked (previous and new config in the payload)", async () => {
      const body = await change({ source: "local_settings", previous_config: ourSettings(), new_config: { permissions: { allow: ["Bash(ls)"] } } });
      assert.ok(denied(body), JSON.stringify(body));
      assert.match((body as { reason: string }).reason, /removes Damage Control's hooks/);
    });
    it("a change that drops our hooks is blocked (only the file path: read from disk)", async () => {
      const file = path.join(dir, ".claude/settings.local.json");
      fs.writeFileSync(file, JSON.stringify({ permissions: {} }));
      assert.ok(denied(await change({ source: "local_settings", file_path: file })));
    });
    it("disableAllHooks is blocked", async () => {
      assert.ok(denied(await change({ source: "user_settings", new_config: { disableAllHooks: true } })));
    });
    it("an unrelated change passes", async () => {
      const next = { ...ourSettings(), model: "other" };
      assert.deepEqual(await change({ source: "local_settings", previous_config: ourSettings(), new_config: next }), {});
      assert.deepEqual(await change({ source: "project_settings", new_config: { env: { A: "1" } } }), {}, "a file that never had our hooks");
    });
    it("policy settings cannot be blocked: no opinion", async () => {
      assert.deepEqual(await change({ source: "policy_settings", new_config: { disableAllHooks: true } }), {});
    });
    it("the refusal is in the audit ledger", async () => {
      await change({ source: "user_settings", new_config: { disableAllHooks: true } });
      await guard.drain();
      const ledger = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8");
      assert.match(ledger, /"event":"ConfigChange".*"decision":"block"/);
    });
  });
});
