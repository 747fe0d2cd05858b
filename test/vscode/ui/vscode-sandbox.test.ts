// Issue 34: VS Code's own agent (code-server 4.139.1) inside its own sandbox, configured by the
// product from the rules (sandbox.mode: required). "Damage Control: Guard VS Code's Agent" installs
// the hook AND writes chat.agent.sandbox.* into the user settings. The mock model runs `python3 cleanup.py`, a script
// that prints .env (zero-access) and rewrites then deletes config/ (read-only): the hook sees only
// `python3 cleanup.py`; the kernel refuses the read and the writes. Control (first): our hook alone,
// installed by `damage-control install copilot` without the sandbox: the secret is read and
// config/ is gone.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { runInAgentChat, waitFor } from "../support/chat-agent";
import { repoRoot } from "../support/paths";
import { CONFIG, openSandboxScenario, SECRET, type SandboxScenario } from "../support/sandbox-scenario";
import { runCommand, screenshotOnFailure } from "../support/workbench";

suite("VS Code's own agent inside its sandbox, configured from the rules", function () {
  this.timeout(300_000);
  let s: SandboxScenario | undefined;

  suiteSetup(async function () {
    s = await openSandboxScenario("vscode-sandbox");
  });
  teardown(async function () {
    await screenshotOnFailure(this, s?.wb.page);
  });
  suiteTeardown(async () => {
    await s?.close();
  });

  test("control: our hook alone (damage-control install copilot, no sandbox): the script reads the secret and deletes config/", async () => {
    const { fx, home, wb, mock } = s!;
    const r = spawnSync(process.execPath, [path.join(repoRoot(), "dist", "cli.js"), "install", "copilot"], { env: { ...process.env, ...fx.env, HOME: home }, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(s!.userSettings()["chat.agent.sandbox.enabled"], undefined, "no sandbox yet");
    await new Promise((res) => setTimeout(res, 3000));
    const o = await runInAgentChat(wb.page, mock, "python3 cleanup.py");
    assert.doesNotMatch(o.text, /Blocked by Damage Control/);
    assert.ok(o.text.includes(SECRET), o.text);
    await waitFor("config/ to be deleted", () => !fs.existsSync(s!.configFile()) || undefined, 20_000);
    // Put it back for the run with the sandbox.
    fs.mkdirSync(path.dirname(s!.configFile()), { recursive: true });
    fs.writeFileSync(s!.configFile(), CONFIG);
  });

  test("Guard VS Code's Agent writes the sandbox from the rules; auto-approval is not switched on", async () => {
    await runCommand(s!.wb.page, "Damage Control: Guard VS Code's Agent");
    const settings = await waitFor("the sandbox settings", () => s!.userSettings()["chat.agent.sandbox.enabled"] === true && s!.userSettings()["chat.agent.allowedNetworkDomains"] !== undefined && s!.userSettings(), 30_000);
    assert.equal(settings["chat.agent.sandbox.allowUnsandboxedCommands"], false);
    assert.equal(settings["chat.agent.sandbox.allowAutoApprove"], false, "VS Code's default (true) would auto-approve every sandboxed command");
    const linux = settings["chat.agent.sandbox.fileSystem.linux"] as { denyRead: string[]; denyWrite: string[] };
    assert.ok(linux.denyRead.includes(path.join(s!.fx.workspace, ".env")), JSON.stringify(linux));
    assert.ok(linux.denyWrite.includes(path.join(s!.fx.workspace, "config")), JSON.stringify(linux));
    assert.ok((settings["chat.agent.allowedNetworkDomains"] as string[]).includes("127.0.0.1"));
    await new Promise((r) => setTimeout(r, 2000));
  });

  test("python3 cleanup.py: the secret is not in what the model read, config/ is unchanged", async () => {
    const o = await runInAgentChat(s!.wb.page, s!.mock, "python3 cleanup.py");
    assert.ok(!o.text.includes(SECRET), `the secret reached the model: ${o.text}`);
    assert.match(o.text, /read failed: .*Permission denied/, o.text);
    assert.equal(fs.readFileSync(s!.configFile(), "utf8"), CONFIG, o.text);
  });
});
