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
import { openAgentWorkbench, runInAgentChat, waitFor } from "../support/chat-agent";
import { startChatModelMock, type ChatModelMock } from "../support/chat-model-mock";
import { makeFixture, waitForEndpoint, type Fixture } from "../support/fixture-workspace";
import { repoRoot } from "../support/paths";
import { runCommand, screenshotOnFailure, type Workbench } from "../support/workbench";
import { cleanupScript } from "../../support/cleanup-script";

const SECRET = "not-a-real-secret";
/** config/app.json as the fixture writes it. */
const CONFIG = '{ "port": 8080 }\n';
const CLEANUP_PY = cleanupScript("config", { file: "config/app.json", content: "{}\n" });

suite("VS Code's own agent inside its sandbox, configured from the rules", function () {
  this.timeout(300_000);
  let fx: Fixture;
  let home: string;
  let mock: ChatModelMock;
  let wb: Workbench | undefined;
  const settingsFile = () => path.join(wb!.server.profileDir, "data", "User", "settings.json");
  const userSettings = (): Record<string, unknown> => {
    try {
      return JSON.parse(fs.readFileSync(settingsFile(), "utf8"));
    } catch {
      return {};
    }
  };
  const configFile = () => path.join(fx.workspace, "config", "app.json");

  suiteSetup(async function () {
    fx = makeFixture("vscode-sandbox");
    fs.writeFileSync(path.join(fx.workspace, "cleanup.py"), CLEANUP_PY);
    // `required`: VS Code's sandbox is turned on (under `auto` only its lists are written: turning it
    // on makes VS Code run sandboxed commands without its confirmation, measured).
    fs.appendFileSync(fx.rulesFile, "sandbox:\n  mode: required\n");
    home = path.join(path.dirname(fx.workspace), "home");
    fs.mkdirSync(home, { recursive: true });
    mock = await startChatModelMock();
    // VS Code's own confirmations are off: only the hook and the kernel are in the way.
    wb = await openAgentWorkbench(fx, mock, home);
    await waitForEndpoint(fx);
    await new Promise((r) => setTimeout(r, 15_000));
  });
  teardown(async function () {
    await screenshotOnFailure(this, wb?.page);
  });
  suiteTeardown(async () => {
    await wb?.close();
    await mock?.close();
    fx?.cleanup();
  });

  test("control: our hook alone (damage-control install copilot, no sandbox): the script reads the secret and deletes config/", async () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot(), "dist", "cli.js"), "install", "copilot"], { env: { ...process.env, ...fx.env, HOME: home }, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(userSettings()["chat.agent.sandbox.enabled"], undefined, "no sandbox yet");
    await new Promise((res) => setTimeout(res, 3000));
    const o = await runInAgentChat(wb!.page, mock, "python3 cleanup.py");
    assert.doesNotMatch(o.text, /Blocked by Damage Control/);
    assert.ok(o.text.includes(SECRET), o.text);
    await waitFor("config/ to be deleted", () => !fs.existsSync(configFile()) || undefined, 20_000);
    // Put it back for the run with the sandbox.
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    fs.writeFileSync(configFile(), CONFIG);
  });

  test("Guard VS Code's Agent writes the sandbox from the rules; auto-approval is not switched on", async () => {
    await runCommand(wb!.page, "Damage Control: Guard VS Code's Agent");
    const s = await waitFor("the sandbox settings", () => userSettings()["chat.agent.sandbox.enabled"] === true && userSettings()["chat.agent.allowedNetworkDomains"] !== undefined && userSettings(), 30_000);
    assert.equal(s["chat.agent.sandbox.allowUnsandboxedCommands"], false);
    assert.equal(s["chat.agent.sandbox.allowAutoApprove"], false, "VS Code's default (true) would auto-approve every sandboxed command");
    const linux = s["chat.agent.sandbox.fileSystem.linux"] as { denyRead: string[]; denyWrite: string[] };
    assert.ok(linux.denyRead.includes(path.join(fx.workspace, ".env")), JSON.stringify(linux));
    assert.ok(linux.denyWrite.includes(path.join(fx.workspace, "config")), JSON.stringify(linux));
    assert.ok((s["chat.agent.allowedNetworkDomains"] as string[]).includes("127.0.0.1"));
    await new Promise((r) => setTimeout(r, 2000));
  });

  test("python3 cleanup.py: the secret is not in what the model read, config/ is unchanged", async () => {
    const o = await runInAgentChat(wb!.page, mock, "python3 cleanup.py");
    assert.ok(!o.text.includes(SECRET), `the secret reached the model: ${o.text}`);
    assert.match(o.text, /read failed: .*Permission denied/, o.text);
    assert.equal(fs.readFileSync(configFile(), "utf8"), CONFIG, o.text);
  });
});
