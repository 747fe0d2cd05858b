// The panel's agent health lines (src/views/panel/agent-health.ts) from the doctor's agent checks,
// and those checks' states on real files in a temp HOME (src/install/agent-checks.ts).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { agentChecks } from "../../src/install/agent-checks";
import type { Check } from "../../src/install/check";
import { installQwen, qwenHookCommand, qwenSettingsFile } from "../../src/install/qwen";
import { agentLines, agentOf, fixCommand } from "../../src/views/panel/agent-health";

const notInstalled = (id: string, label: string, cmd: string): Check => ({ id, status: "ok", message: `${label}: not installed (only needed for ${label}: ${cmd})`, agent: { label, state: "not-installed" } });

describe("panel agent health", () => {
  it("agents not set up collapse into one quiet line that names them, with their commands as its detail", () => {
    const lines = agentLines([notInstalled("codex", "Codex CLI", "damage-control install codex"), notInstalled("qwen", "Qwen Code", "damage-control install qwen"), { id: "pi", status: "warn", message: "pi extension not installed (only needed for pi: damage-control install pi)", agent: { label: "pi", state: "not-installed" } }]);
    assert.equal(lines.length, 1);
    assert.deepEqual({ id: lines[0]!.id, state: lines[0]!.state, status: lines[0]!.status, text: lines[0]!.text }, { id: "not-installed", state: "not-installed", status: "ok", text: "No agent is wired yet. Not set up for: Codex CLI, Qwen Code, pi" });
    assert.equal(lines[0]!.detail, "Codex CLI: damage-control install codex\nQwen Code: damage-control install qwen\npi: damage-control install pi");
    // Changed on purpose (issue 38): with no agent wired, the line carries the one command that wires the first.
    assert.equal(lines[0]!.fix, "damage-control install codex");
  });

  it("the kernel sandbox's line is about the machine: it never makes an agent wired", () => {
    const sandbox = { id: "sandbox", status: "ok" as const, message: "Kernel sandbox: bubblewrap works", agent: { label: "Kernel sandbox", state: "guarding" as const } };
    const lines = agentLines([sandbox, notInstalled("codex", "Codex CLI", "damage-control install codex")]);
    const last = lines[lines.length - 1]!;
    assert.equal(last.text, "No agent is wired yet. Not set up for: Codex CLI");
    assert.equal(last.fix, "damage-control install codex");
  });

  it("an agent installed but not guarding gets a warning line first: the doctor's reason and the command that fixes it", () => {
    const broken: Check = { id: "qwen", status: "fail", message: `Qwen Code: our hook is in /h/.qwen/settings.json but Qwen would not run it: its command "x" is missing (reinstall: damage-control install qwen)`, agent: { label: "Qwen Code", state: "not-guarding" } };
    const lines = agentLines([notInstalled("codex", "Codex CLI", "damage-control install codex"), { id: "opencode", status: "ok", message: "OpenCode: plugin at /p", agent: { label: "OpenCode", state: "guarding" } }, broken]);
    assert.deepEqual(lines.map((l) => [l.id, l.state]), [["qwen", "not-guarding"], ["opencode", "guarding"], ["not-installed", "not-installed"]]);
    assert.equal(lines[0]!.text, `Qwen Code is not guarded: our hook is in /h/.qwen/settings.json but Qwen would not run it: its command "x" is missing (reinstall: damage-control install qwen)`);
    assert.equal(lines[0]!.fix, "damage-control install qwen");
    assert.equal(lines[0]!.status, "fail");
    assert.equal(lines[0]!.action, undefined, "no button where the extension cannot safely fix it");
    assert.equal(lines[1]!.text, "OpenCode: guarded");
    assert.equal(lines[1]!.detail, "OpenCode: plugin at /p");
  });

  it("VS Code's agent keeps its own line, with the Guard button only while it is not guarded", () => {
    const off: Check = { id: "vscode", status: "warn", message: "VS Code's agent is not guarded: no /h/.copilot/hooks/damage-control.json", agent: { label: "VS Code's agent", state: "not-installed" } };
    const [line] = agentLines([off]);
    assert.deepEqual([line!.id, line!.status, line!.action], ["vscode", "warn", "guardVsCodeAgent"]);
    // Changed on purpose (issue 38): a short line on the first screen, the doctor's message as its tooltip.
    assert.equal(line!.text, "VS Code's agent is not guarded yet.");
    assert.equal(line!.detail, off.message);
    const [on] = agentLines([{ ...off, status: "ok", message: "VS Code's agent is guarded by x", agent: { label: "VS Code's agent", state: "guarding" } }]);
    assert.deepEqual([on!.status, on!.action, on!.text], ["ok", undefined, "VS Code's agent is guarded by x"]);
  });

  it("a check in another shape (an agent added later) still shows: a failure is never read as guarded", () => {
    assert.deepEqual(agentOf({ id: "cline", status: "fail", message: "Cline: our hook is in x but it is not executable (reinstall: damage-control install cline)" }), { label: "Cline", state: "not-guarding" });
    assert.deepEqual(agentOf({ id: "cline", status: "ok", message: "Cline: not installed (only needed for Cline: damage-control install cline)" }), { label: "Cline", state: "not-installed" });
    assert.deepEqual(agentOf({ id: "cline", status: "ok", message: "Cline: PreToolUse hook in /h/.cline/hooks" }), { label: "Cline", state: "guarding" });
    assert.equal(agentLines([{ id: "cline", status: "fail", message: "Cline: broken (reinstall: damage-control install cline)" }])[0]!.fix, "damage-control install cline");
  });

  it("fixCommand takes the command a doctor message names", () => {
    assert.equal(fixCommand("no Damage Control PreToolUse hook for this folder (damage-control install claude --cwd /w/p)"), "damage-control install claude --cwd /w/p");
    assert.equal(fixCommand("Gemini CLI: our hook is in x but folder trust is on"), undefined);
  });

  it("the doctor's agent checks on real files: every agent not installed, then Qwen guarding, then Qwen broken", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-agents-"));
    const folder = path.join(home, "proj");
    fs.mkdirSync(folder);
    try {
      const env = { HOME: home, DAMAGE_CONTROL_STATE_DIR: path.join(home, "state"), DAMAGE_CONTROL_MANAGED_SETTINGS: path.join(home, "none.json") };
      const checks = agentChecks(folder, env);
      assert.deepEqual(checks.map((c) => agentOf(c).label), ["Claude Code", "pi", "Codex CLI", "Gemini CLI", "Qwen Code", "OpenCode", "Cline", "Copilot CLI"]);
      assert.deepEqual(agentLines(checks).map((l) => l.id), ["not-installed"]);
      const sh = path.join(env.DAMAGE_CONTROL_STATE_DIR, "bin/damage-control-hook");
      fs.mkdirSync(path.dirname(sh), { recursive: true });
      fs.writeFileSync(sh, "#!/bin/sh\n", { mode: 0o755 });
      installQwen(qwenSettingsFile(env), qwenHookCommand(sh));
      assert.deepEqual(agentLines(agentChecks(folder, env)).map((l) => [l.id, l.state]), [["qwen", "guarding"], ["not-installed", "not-installed"]]);
      fs.rmSync(sh);
      const [broken] = agentLines(agentChecks(folder, env));
      assert.deepEqual([broken!.id, broken!.state, broken!.fix], ["qwen", "not-guarding", "damage-control install qwen"]);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
