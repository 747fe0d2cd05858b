// The wiring line of the VS Code host (src/views/guard-host.ts: `sandbox: sandboxFromRules(...)`):
// the extension's endpoint takes the sandbox mode and policy from the folder's resolved rules and
// follows an edit of them on the next call. A Codex PreToolUse for a harmless `ls` (Codex asks
// nobody: bypassPermissions) is answered with the runner's rewrite under auto (the fixture sets no
// mode) and required (the workspace file), and with no opinion under off (the user's rules file:
// only a layer that may loosen can switch the sandbox off).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { fixtureFromEnv, request } from "../support/fixture-workspace";
import { needsSandbox } from "../../support/needs-sandbox";
import { dcApi, dcEndpoint, until } from "./helpers";

const fx = fixtureFromEnv();

suite("the sandbox step follows the folder's rules (VS Code host)", () => {
  let n = 0;
  type CodexAnswer = { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: { command?: string } } };
  /** Codex's PreToolUse for `ls`: "bypassPermissions" (Codex asks nobody) or "default" (it would ask its user). */
  async function codexLs(mode: "bypassPermissions" | "default" = "bypassPermissions"): Promise<CodexAnswer> {
    const { url, token } = await dcEndpoint(await dcApi());
    const payload = { session_id: "host-sandbox", cwd: fx.workspace, hook_event_name: "PreToolUse", permission_mode: mode, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: `call_${n++}` };
    const a = await request(url, token, "POST", "/hook/codex", payload);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    return a.body as CodexAnswer;
  }
  const runner = new RegExp(`^'?${fx.stateDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/sandbox/run'? [0-9a-f]{32} ls$`);
  /** The answers under one mode: auto rewrites and leaves Codex's own question alone; required refuses where it cannot rewrite; off does nothing. */
  const isMode = async (mode: "auto" | "required" | "off") => {
    const bypass = await codexLs();
    const asks = await codexLs("default");
    const rewritten = runner.test(bypass.hookSpecificOutput?.updatedInput?.command ?? "") && bypass.hookSpecificOutput?.permissionDecision === "allow";
    const refused = asks.hookSpecificOutput?.permissionDecision === "deny" && /required here/.test(asks.hookSpecificOutput.permissionDecisionReason ?? "");
    if (mode === "auto") return rewritten && JSON.stringify(asks) === "{}";
    if (mode === "required") return rewritten && refused;
    return JSON.stringify(bypass) === "{}" && JSON.stringify(asks) === "{}";
  };

  test("auto (the default), required (workspace file), off (user file): each followed on the next calls after the edit", async function () {
    needsSandbox(this, "bwrap");
    this.timeout(90_000);
    const userFile = process.env.DAMAGE_CONTROL_USER_RULES;
    assert.ok(userFile, "the fixture names a user rules file");
    const workspaceBefore = fs.readFileSync(fx.rulesFile, "utf8");
    const userBefore = fs.existsSync(userFile) ? fs.readFileSync(userFile, "utf8") : undefined;
    try {
      assert.ok(await isMode("auto"), "auto: the harmless call is rewritten; Codex's own question is left to it");
      fs.writeFileSync(fx.rulesFile, `${workspaceBefore.trimEnd()}\nsandbox:\n  mode: required\n`);
      await until(() => isMode("required"), 20_000, "the workspace file's required to be followed");
      // Only a layer that may loosen switches it off: the user's file, once the workspace's required is gone.
      fs.writeFileSync(userFile, "sandbox:\n  mode: off\n");
      fs.writeFileSync(fx.rulesFile, workspaceBefore);
      await until(() => isMode("off"), 20_000, "the user file's off to be followed");
    } finally {
      fs.writeFileSync(fx.rulesFile, workspaceBefore);
      if (userBefore === undefined) fs.rmSync(userFile, { force: true });
      else fs.writeFileSync(userFile, userBefore);
      // Back to the fixture's rules for the suites after this one (a failure above stays the one reported).
      await until(() => isMode("auto"), 20_000, "auto again once the files are restored").catch(() => undefined);
    }
  });
});
