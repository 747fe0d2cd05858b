// install/uninstall/doctor for Qwen Code and OpenCode (issue 25), and their wire adapters.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AGENTS } from "../../src/engine/agents";
import { opencodeCheck, qwenCheck } from "../../src/install/doctor-agents-more";
import { installOpenCode, opencodePluginFile, uninstallOpenCode } from "../../src/install/opencode";
import { installQwen, QWEN_HOOK_TIMEOUT_S, qwenHookCommand, qwenSettingsFile, uninstallQwen } from "../../src/install/qwen";
import { repoRoot } from "./support";

describe("install qwen / opencode", function () {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-qo-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("qwen: merged into the user's settings, twice changes nothing, uninstall restores them; doctor follows", () => {
    const env = { HOME: dir, DAMAGE_CONTROL_STATE_DIR: path.join(dir, "state") };
    const file = qwenSettingsFile(env);
    const mine = { security: { auth: { selectedType: "openai" } }, hooks: { PreToolUse: [{ matcher: "write_file", hooks: [{ type: "command", command: "mine" }] }] } };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(mine));
    assert.equal(qwenCheck(env).message.includes("not installed"), true);
    const sh = path.join(dir, "state/bin/damage-control-hook");
    assert.equal(installQwen(file, `'${sh}' qwen`).changed, true);
    assert.equal(installQwen(file, `'${sh}' qwen`).changed, false);
    const s = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(s.security.auth.selectedType, "openai");
    assert.deepEqual(s.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher), ["*", "write_file"]);
    // The launcher is missing: installed, not guarding.
    assert.equal(qwenCheck(env).status, "fail");
    fs.mkdirSync(path.dirname(sh), { recursive: true });
    fs.writeFileSync(sh, "#!/bin/sh\n");
    assert.equal(qwenCheck(env).status, "ok");
    fs.writeFileSync(file, JSON.stringify({ ...s, disableAllHooks: true }));
    assert.match(qwenCheck(env).message, /disableAllHooks/);
    fs.writeFileSync(file, JSON.stringify(s));
    assert.equal(uninstallQwen(file).removed, 1);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), mine);
  });

  it("qwen: Qwen's timeout outlasts the launcher's deadline for the longest ask the extension allows (Qwen runs the call on a timeout)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    const maxAsk = pkg.contributes.configuration.properties["damageControl.askTimeoutSeconds"].maximum as number;
    // launcher.ts: curl's --max-time is the ask timeout + 10 s, then the local decision.
    assert.ok(QWEN_HOOK_TIMEOUT_S >= maxAsk + 10 + 5, `${QWEN_HOOK_TIMEOUT_S} s < ${maxAsk} + 10 s + a margin`);
    assert.ok(QWEN_HOOK_TIMEOUT_S < 1000, "Qwen reads a command hook timeout of 1000 or more as milliseconds");
  });

  it("qwen: the hook command turns every exit but 0 and 2 into exit 2 (Qwen runs the call on any other)", () => {
    const sh = path.join(dir, "hook");
    const run = (_: string) => spawnSync("/bin/sh", ["-c", qwenHookCommand(sh)], { input: "{}", encoding: "utf8", env: { PATH: process.env.PATH } });
    const write = (body: string) => fs.writeFileSync(sh, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    assert.equal(run("").status, 2, "no launcher at all");
    assert.match(run("").stderr, /Blocked by Damage Control: its hook launcher failed \(exit 127/);
    write(`echo '{"x":1}'; exit 0`);
    assert.equal(run("").status, 0);
    assert.equal(run("").stdout.trim(), '{"x":1}');
    write(`echo reason >&2; exit 2`);
    const two = run("");
    assert.equal(two.status, 2);
    assert.equal(two.stderr.trim(), "reason", "the launcher's own refusal reason, nothing added");
    write(`exit 1`);
    assert.equal(run("").status, 2);
  });

  it("opencode: user or project plugin; uninstall removes only ours; doctor follows", () => {
    const env = { HOME: dir };
    const user = opencodePluginFile({}, env);
    assert.equal(user, path.join(dir, ".config/opencode/plugins/damage-control.js"));
    assert.equal(opencodePluginFile({ folder: "/p" }), "/p/.opencode/plugins/damage-control.js");
    const sh = path.join(dir, "launcher");
    installOpenCode(user, sh, 50);
    assert.equal(opencodeCheck(dir, env).status, "fail", "the launcher is missing");
    fs.writeFileSync(sh, "#!/bin/sh\n");
    assert.equal(opencodeCheck(dir, env).status, "ok");
    const other = path.join(dir, ".opencode/plugins/damage-control.js");
    fs.mkdirSync(path.dirname(other), { recursive: true });
    fs.writeFileSync(other, "export const Mine = async () => ({});\n");
    assert.equal(uninstallOpenCode(other).removed, false, "not ours: kept");
    assert.equal(uninstallOpenCode(user).removed, true);
    assert.match(opencodeCheck(dir, env).message, /not installed/);
  });

  it("the adapters map their tools onto the engine's vocabulary and refuse what they cannot read", () => {
    const q = AGENTS.qwen.read({ hook_event_name: "PreToolUse", cwd: "/w", tool_name: "run_shell_command", tool_input: { command: "rm -r data", directory: "sub" } });
    assert.deepEqual([q.call, q.cwd], [{ tool: "bash", input: { command: "rm -r data" } }, "/w/sub"]);
    assert.deepEqual(AGENTS.qwen.read({ hook_event_name: "PreToolUse", tool_name: "edit", tool_input: { file_path: "a" } }).call, { tool: "edit", input: { file_path: "a" } });
    assert.match(AGENTS.qwen.read({ hook_event_name: "PreToolUse", tool_name: "write_file", tool_input: {} }).malformed!, /file_path/);
    const o = AGENTS.opencode.read({ tool: "apply_patch", args: { patchText: "*** Begin Patch\n*** Delete File: data/keep.txt\n*** End Patch" }, cwd: "/w" });
    assert.deepEqual(o.call, { tool: "bash", input: { command: "rm -- 'data/keep.txt'" } });
    assert.deepEqual(AGENTS.opencode.read({ tool: "edit", args: { filePath: "x" } }).call, { tool: "edit", input: { file_path: "x" } });
    assert.match(AGENTS.opencode.read({ tool: "bash" }).malformed!, /args/);
    const deny = { kind: "deny", reason: "Blocked by Damage Control: no" } as const;
    assert.deepEqual(AGENTS.opencode.render(o, deny).body, { decision: "deny", reason: "Blocked by Damage Control: no" });
    assert.equal((AGENTS.qwen.render(q, deny).body as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision, "deny");
  });
});
