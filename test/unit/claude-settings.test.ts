import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { addOurHooks, chooseMode, eventsFor, listOurHooks, removeOurHooks } from "../../src/engine/claude-settings";
import { installClaude, refreshClaudeHooks, settingsFile, uninstallClaude } from "../../src/install/claude";
import { compareVersions, parseVersion } from "../../src/engine/version";

const URL = "http://127.0.0.1:42424";
const CMD = "/usr/bin/node /opt/dc/dist/cli.js hook claude";

describe("Claude Code settings", () => {
  it("versions", () => {
    assert.equal(parseVersion("2.1.332 (Claude Code)"), "2.1.332");
    assert.ok(compareVersions("2.1.197", "2.1.295") < 0);
    assert.ok(compareVersions("2.1.332", "2.1.295") > 0);
    assert.equal(compareVersions("2.1.295", "2.1.295"), 0);
    assert.ok(compareVersions("2.10.0", "2.9.9") > 0);
  });

  it("HTTP hooks with onFailure where it is honoured; a command hook before 2.1.295", () => {
    assert.deepEqual(chooseMode("2.1.332", URL, CMD), { kind: "http", url: URL });
    assert.deepEqual(chooseMode("2.1.295", URL, CMD), { kind: "http", url: URL });
    assert.deepEqual(chooseMode("2.1.197", URL, CMD), { kind: "command", command: CMD });
    assert.deepEqual(chooseMode(undefined, URL, CMD), { kind: "http", url: URL });
  });

  it("registers only the events the version knows", () => {
    assert.deepEqual(eventsFor("2.1.332"), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "ConfigChange"]);
    assert.deepEqual(eventsFor("2.1.197"), ["PreToolUse", "PermissionRequest", "ConfigChange"]);
    assert.deepEqual(eventsFor(undefined), ["PreToolUse", "PermissionRequest", "ConfigChange"]);
  });

  it("the HTTP entry: url, token header from the environment, timeout beyond the ask, onFailure block", () => {
    const s = addOurHooks({}, ["PreToolUse"], { kind: "http", url: URL });
    assert.deepEqual(s, {
      hooks: {
        PreToolUse: [
          {
            matcher: "",
            hooks: [
              {
                type: "http",
                url: `${URL}/claude/hook`,
                timeout: 45,
                headers: { Authorization: "Bearer $DAMAGE_CONTROL_TOKEN" },
                allowedEnvVars: ["DAMAGE_CONTROL_TOKEN"],
                onFailure: "block",
              },
            ],
          },
        ],
      },
    });
  });

  it("merges with other keys and hooks, is idempotent, and removal restores the original", () => {
    const original = {
      model: "x",
      permissions: { allow: ["Bash(ls)"] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "my-linter" }] }], Stop: [{ hooks: [{ type: "command", command: "say done" }] }] },
    };
    const once = addOurHooks(original, ["PreToolUse", "PermissionRequest"], { kind: "http", url: URL });
    const twice = addOurHooks(once, ["PreToolUse", "PermissionRequest"], { kind: "http", url: URL });
    assert.deepEqual(twice, once);
    assert.equal(listOurHooks(once).length, 2);
    assert.deepEqual((once.hooks as Record<string, unknown[]>).PreToolUse[0], original.hooks.PreToolUse[0]);
    assert.deepEqual(removeOurHooks(once), original);
  });

  it("a port move replaces the old entries instead of adding", () => {
    const a = addOurHooks({}, ["PreToolUse"], { kind: "http", url: URL });
    const b = addOurHooks(a, ["PreToolUse"], { kind: "http", url: "http://127.0.0.1:50000" });
    assert.equal(listOurHooks(b).length, 1);
    assert.equal(listOurHooks(b)[0].hook.url, "http://127.0.0.1:50000/claude/hook");
  });

  describe("on disk", () => {
    let dir: string;
    beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-claude-"))));
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("install writes .claude/settings.local.json; twice changes nothing; uninstall removes exactly it", () => {
      fs.mkdirSync(path.join(dir, ".claude"));
      fs.writeFileSync(settingsFile(dir), JSON.stringify({ env: { A: "1" } }, null, 2) + "\n");
      const r1 = installClaude({ folder: dir, url: URL, hookCommand: CMD, version: "2.1.332" });
      assert.equal(r1.changed, true);
      assert.equal(r1.mode, "http");
      const text = fs.readFileSync(settingsFile(dir), "utf8");
      const r2 = installClaude({ folder: dir, url: URL, hookCommand: CMD, version: "2.1.332" });
      assert.equal(r2.changed, false);
      assert.equal(fs.readFileSync(settingsFile(dir), "utf8"), text);
      assert.equal(uninstallClaude(dir).removed, 4);
      assert.deepEqual(JSON.parse(fs.readFileSync(settingsFile(dir), "utf8")), { env: { A: "1" } });
    });

    it("old Claude Code gets the command hook", () => {
      const r = installClaude({ folder: dir, url: URL, hookCommand: CMD, version: "2.1.197" });
      assert.equal(r.mode, "command");
      const s = JSON.parse(fs.readFileSync(settingsFile(dir), "utf8"));
      assert.equal(s.hooks.PreToolUse[0].hooks[0].command, CMD);
      uninstallClaude(dir);
      assert.equal(fs.existsSync(settingsFile(dir)), false, "a file we created and emptied is removed");
    });

    it("refresh points HTTP hooks at a moved endpoint", () => {
      installClaude({ folder: dir, url: URL, hookCommand: CMD, version: "2.1.332" });
      assert.equal(refreshClaudeHooks(dir, "http://127.0.0.1:50001"), true);
      assert.equal(refreshClaudeHooks(dir, "http://127.0.0.1:50001"), false);
      const s = JSON.parse(fs.readFileSync(settingsFile(dir), "utf8"));
      assert.equal(s.hooks.PreToolUse[0].hooks[0].url, "http://127.0.0.1:50001/claude/hook");
      assert.deepEqual(Object.keys(s.hooks), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "ConfigChange"]);
    });

    it("refuses to overwrite a settings file that is not JSON", () => {
      fs.mkdirSync(path.join(dir, ".claude"));
      fs.writeFileSync(settingsFile(dir), "{ broken");
      assert.throws(() => installClaude({ folder: dir, url: URL, hookCommand: CMD, version: "2.1.332" }));
      assert.equal(fs.readFileSync(settingsFile(dir), "utf8"), "{ broken");
    });
  });
});
