// The REAL VS Code agent (agent mode of the built-in chat, code-server 4.139.1) against a mock
// Chat Completions model on 127.0.0.1, guarded by the hook "Damage Control: Guard VS Code's
// Agent" installs (../shared/notes/vscode-agent-hooks.md §5). VS Code's own confirmations are
// switched off (chat.tools.global.autoApprove), so the hook is the only thing in the way:
//   1. rm -rf data is refused: data/ survives, the model's next request carries our reason;
//   2. a harmless ls runs;
//   3. with the endpoint stopped (damageControl.enabled off) rm -rf is still refused (local decision);
//   4. control: without the hook file the same prompt really deletes data/.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { lookupEndpoint, type Registration } from "../../../src/core/registry";
import { freePort } from "../support/processes";
import { openAgentWorkbench, runInAgentChat, waitFor } from "../support/chat-agent";
import { startChatModelMock, type ChatModelMock } from "../support/chat-model-mock";
import { makeFixture, request, waitForEndpoint, type Fixture } from "../support/fixture-workspace";
import { runCommand, screenshot, screenshotOnFailure, type Workbench } from "../support/workbench";
import { showPanel } from "../support/dc-ui";

suite("VS Code's own agent, guarded", function () {
  this.timeout(240_000);
  let fx: Fixture;
  let home: string;
  let mock: ChatModelMock;
  let wb: Workbench | undefined;
  const started = Date.now();
  const hookFile = () => path.join(home, ".copilot", "hooks", "damage-control.json");
  const dataFile = () => path.join(fx.workspace, "data", "records.csv");
  const ledgerText = () => fs.readFileSync(path.join(fx.workspace, ".damage-control", "audit.jsonl"), "utf8");
  let endpoint: { url: string; token: string };
  /** How many decisions the endpoint has made (its /health). */
  const endpointDecisions = async () => (await request(endpoint.url, endpoint.token, "GET", "/health")).body.decisions as number;

  /** Sends one prompt that makes the model call run_in_terminal with `command`; resolves with what the model was told. */
  const runInAgent = (command: string) => runInAgentChat(wb!.page, mock, command);

  suiteSetup(async function () {
    fx = makeFixture("vscode-agent");
    home = path.join(path.dirname(fx.workspace), "home");
    fs.mkdirSync(home, { recursive: true });
    mock = await startChatModelMock();
    // VS Code's own confirmations are off: only the hook and the kernel are in the way.
    wb = await openAgentWorkbench(fx, mock, home);
    endpoint = await waitForEndpoint(fx);
    // Note §5.6: the built-in chat finishes its anonymous setup some seconds after the workbench loads.
    await new Promise((r) => setTimeout(r, 15_000));
  });
  teardown(async function () {
    await screenshotOnFailure(this, wb?.page);
  });
  suiteTeardown(async () => {
    await wb?.close();
    await mock?.close();
    fx?.cleanup();
    console.log(`      [vscode-agent] suite took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  test("Guard VS Code's Agent writes the user-level hook file (one entry, the stable launcher)", async () => {
    // The panel's health area says VS Code's agent is not guarded yet, with the button that guards it.
    const panel = await showPanel(wb!.page);
    const status = panel.locator("#vscode-agent");
    await status.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await status.textContent()) ?? "", /VS Code's agent is not guarded/);
    assert.notEqual(await status.getAttribute("data-status"), "ok");
    assert.equal(await panel.locator("#guard-vscode-agent").isVisible(), true, "no Guard VS Code's Agent button in the panel");
    await runCommand(wb!.page, "Damage Control: Guard VS Code's Agent");
    const file = await waitFor("the hook file", () => fs.existsSync(hookFile()) && JSON.parse(fs.readFileSync(hookFile(), "utf8")));
    // The panel follows: guarded by that file, and the button is gone.
    await panel.locator('#vscode-agent[data-status="ok"]').waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await status.textContent()) ?? "", /VS Code's agent is guarded by .*damage-control\.json/);
    assert.equal(await panel.locator("#guard-vscode-agent").count(), 0, "the button stays after the agent is guarded");
    assert.equal(file.hooks.preToolUse.length, 1);
    assert.match(file.hooks.preToolUse[0].bash, new RegExp(`${fx.stateDir}/bin/damage-control-hook`));
    assert.ok(fs.existsSync(path.join(fx.stateDir, "lib", "cli.js")), "the launcher's copy of the CLI");
    // VS Code picks a new file under ~/.copilot/hooks up without a reload; give its watcher a moment.
    await new Promise((r) => setTimeout(r, 2000));
  });

  test("the agent's rm -rf data is refused: data/ survives and the model is told our reason", async () => {
    const o = await runInAgent("rm -rf data");
    await screenshot(wb!.page, "vscode-agent-rm-refused");
    assert.match(o.text, /Blocked by Damage Control: recursive or forced rm/);
    assert.match(o.text, /Do not work around this/);
    assert.equal(o.confirmed, false, "refused before VS Code's own confirmation");
    assert.ok(fs.existsSync(dataFile()), "data/records.csv must survive");
    assert.match(ledgerText(), /"agent":"vscode".*"target":"rm -rf data".*"decision":"block"/);
  });

  test("a harmless ls runs", async () => {
    const o = await runInAgent("ls");
    assert.doesNotMatch(o.text, /Blocked by Damage Control/);
    assert.match(o.text, /README\.md/);
    // No opinion ({}), never "allow": VS Code's own confirmation still came up for it.
    assert.equal(o.confirmed, true, "VS Code asked its user (our hook did not answer allow)");
  });

  test("with the endpoint unreachable, rm -rf data is still refused (decided locally)", async () => {
    // The endpoint lives in this window's extension host, which also runs the agent: it cannot be
    // killed alone. Its registration is pointed at a closed port instead, which is what a hook
    // sees of an endpoint that is gone (connection refused).
    // register() no longer replaces a live endpoint's entry (issue 35), so the test, the user's own
    // process, rewrites the registry file the hooks read, as a gone endpoint would leave it (the
    // launcher's by-path line is no longer written or read: the launcher runs the Node hook).
    const reg = lookupEndpoint(fx.workspace, fx.stateDir)!;
    const closed = await freePort();
    pointRegistration(fx.stateDir, reg, `http://127.0.0.1:${closed}`, closed);
    const before = await endpointDecisions();
    const o = await runInAgent("rm -rf data");
    pointRegistration(fx.stateDir, reg, reg.url, reg.port);
    assert.match(o.text, /Blocked by Damage Control: recursive or forced rm/);
    assert.ok(fs.existsSync(dataFile()), "data/records.csv must survive");
    assert.equal(await endpointDecisions(), before, "the endpoint did not decide it: the local decision did");
    assert.match(ledgerText(), /"agent":"vscode".*"target":"rm -rf data".*"decision":"block"[^\n]*\n?$/);
  });

  test("control: without the hook file the same prompt deletes data/ (the test can fail)", async () => {
    fs.rmSync(hookFile());
    await new Promise((r) => setTimeout(r, 3000));
    const o = await runInAgent("rm -rf data");
    assert.doesNotMatch(o.text, /Blocked by Damage Control/);
    await waitFor("data/ to be deleted", () => !fs.existsSync(path.join(fx.workspace, "data")) || undefined, 20_000);
  });
});

/** The registry entry of `reg`'s folder pointed at `url`, its process unchanged. */
function pointRegistration(stateDir: string, reg: Registration, url: string, port: number): void {
  const id = createHash("sha256").update(path.resolve(reg.folder)).digest("hex").slice(0, 20);
  fs.writeFileSync(path.join(stateDir, "endpoints", `${id}.json`), JSON.stringify({ ...reg, url, port }, null, 2) + "\n", { mode: 0o600 });
}
