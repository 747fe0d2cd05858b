// The panel's agent health lines (issue 25) in a real VS Code: the doctor's agent checks, run by
// the extension against the test HOME. Nothing set up: one quiet "Not set up for" line. After the
// real `damage-control install qwen` into that HOME: a "Qwen Code: guarded" line. With the
// launcher the hook runs deleted (a broken install): a "not guarded" warning with its fix.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeFixture, waitForEndpoint, type Fixture } from "../support/fixture-workspace";
import { repoRoot } from "../support/paths";
import { openWorkbench, screenshot, screenshotOnFailure, type Workbench } from "../support/workbench";
import { showPanel } from "../support/dc-ui";

suite("panel: the agents' health", function () {
  this.timeout(180_000);
  let fx: Fixture;
  let home: string;
  let wb: Workbench | undefined;
  /** The real CLI, as a user runs it in a terminal with this HOME and state folder. */
  const cli = (...args: string[]) => spawnSync(process.execPath, [path.join(repoRoot(), "dist/cli.js"), ...args], { encoding: "utf8", env: { ...process.env, ...fx.env, HOME: home } });

  suiteSetup(async () => {
    fx = makeFixture("agents-health");
    home = path.join(path.dirname(fx.workspace), "home");
    fs.mkdirSync(home, { recursive: true });
    // No machine-wide managed settings are read (the doctor's Claude Code check).
    wb = await openWorkbench({ workspaceFolder: fx.workspace, env: { ...fx.env, HOME: home, DAMAGE_CONTROL_MANAGED_SETTINGS: path.join(home, "no-managed.json") } });
    await waitForEndpoint(fx);
  });
  teardown(async function () {
    await screenshotOnFailure(this, wb?.page);
  });
  suiteTeardown(async () => {
    await wb?.close();
    fx?.cleanup();
  });

  test("nothing set up: one quiet line names the agents, no warning per agent", async () => {
    const panel = await showPanel(wb!.page);
    const quiet = panel.locator("#not-installed-agent");
    await quiet.waitFor({ state: "visible", timeout: 30_000 });
    const text = (await quiet.textContent()) ?? "";
    for (const agent of ["Claude Code", "pi", "Codex CLI", "Gemini CLI", "Qwen Code", "OpenCode", "Copilot CLI"]) assert.ok(text.includes(agent), `${agent} missing from "${text}"`);
    assert.equal(await panel.locator('#agents-status [data-state="not-guarding"]').count(), 0);
    assert.equal(await panel.locator("#qwen-agent").count(), 0);
  });

  test("after `damage-control install qwen` the Qwen Code line says guarded", async () => {
    const r = cli("install", "qwen", "--cwd", fx.workspace);
    assert.equal(r.status, 0, r.stderr);
    const panel = await showPanel(wb!.page);
    const line = panel.locator('#qwen-agent[data-state="guarding"]');
    await line.waitFor({ state: "visible", timeout: 30_000 });
    assert.equal((await line.textContent())?.trim(), "Qwen Code: guarded");
    assert.match((await line.getAttribute("title")) ?? "", /PreToolUse hook in .*\.qwen\/settings\.json/);
    assert.doesNotMatch((await panel.locator("#not-installed-agent").textContent()) ?? "", /Qwen Code/);
    await screenshot(wb!.page, "agents-health-guarding");
  });

  test("a broken install (the launcher the hook runs is gone) is a warning with the command that fixes it", async () => {
    fs.rmSync(path.join(fx.stateDir, "bin", "damage-control-hook"));
    const panel = await showPanel(wb!.page);
    const line = panel.locator('#qwen-agent[data-state="not-guarding"]');
    await line.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await line.textContent()) ?? "", /Qwen Code is not guarded: our hook is in .*settings\.json but Qwen would not run it: its command .*damage-control-hook' is missing/);
    assert.equal(await line.locator(".fix code").textContent(), "damage-control install qwen");
    assert.equal(await line.getAttribute("data-status"), "fail");
    await screenshot(wb!.page, "agents-health-not-guarding");
    // The fix, run as the line says, turns it back to guarded.
    assert.equal(cli("install", "qwen", "--cwd", fx.workspace).status, 0);
    await panel.locator('#qwen-agent[data-state="guarding"]').waitFor({ state: "visible", timeout: 30_000 });
  });
});
