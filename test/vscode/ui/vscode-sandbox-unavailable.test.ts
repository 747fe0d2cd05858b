// Issue 34, the fail-closed matrix's row for VS Code's own agent: the rules say `sandbox.mode:
// required`, "Guard VS Code's Agent" turns VS Code's sandbox on, and this machine has no bubblewrap
// (code-server starts with a PATH that has everything but bwrap). Measured in code-server 4.139.1:
// VS Code does not run the command unsandboxed; it holds it behind "Missing Sandbox Dependencies …
// Install / Cancel", and Cancel tells the model the command did not run. The scenario is the one
// vscode-sandbox.test.ts runs with bubblewrap present (whose control shows the script reads the
// secret and deletes config/ when nothing is in the way): here neither happens.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openAgentWorkbench, runInAgentChat, waitFor } from "../support/chat-agent";
import { startChatModelMock, type ChatModelMock } from "../support/chat-model-mock";
import { makeFixture, waitForEndpoint, type Fixture } from "../support/fixture-workspace";
import { runCommand, screenshotOnFailure, type Workbench } from "../support/workbench";
import { cleanupScript } from "../../support/cleanup-script";
import { pathWithout } from "../../support/path-without";

const SECRET = "not-a-real-secret";
const CONFIG = '{ "port": 8080 }\n';
const CLEANUP_PY = cleanupScript("config", { file: "config/app.json", content: "{}\n" });

suite("fail-closed matrix: VS Code's agent, sandbox required, no bubblewrap on this machine", function () {
  this.timeout(300_000);
  let fx: Fixture;
  let home: string;
  let mock: ChatModelMock;
  let wb: Workbench | undefined;
  const settingsFile = () => path.join(wb!.server.profileDir, "data", "User", "settings.json");
  const configFile = () => path.join(fx.workspace, "config", "app.json");

  suiteSetup(async function () {
    fx = makeFixture("vscode-sandbox-unavailable");
    fs.writeFileSync(path.join(fx.workspace, "cleanup.py"), CLEANUP_PY);
    fs.appendFileSync(fx.rulesFile, "sandbox:\n  mode: required\n");
    home = path.join(path.dirname(fx.workspace), "home");
    fs.mkdirSync(home, { recursive: true });
    const bin = pathWithout(path.join(path.dirname(fx.workspace), "bin-without-bwrap"), ["bwrap"]);
    mock = await startChatModelMock();
    wb = await openAgentWorkbench(fx, mock, home, { PATH: bin });
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

  test("python3 cleanup.py: VS Code holds it for the missing bubblewrap; Cancel → nothing ran, the secret is not read, config/ unchanged", async () => {
    await runCommand(wb!.page, "Damage Control: Guard VS Code's Agent");
    await waitFor("the sandbox settings", () => {
      try {
        return JSON.parse(fs.readFileSync(settingsFile(), "utf8"))["chat.agent.sandbox.enabled"] === true || undefined;
      } catch {
        return undefined;
      }
    }, 30_000);
    await new Promise((r) => setTimeout(r, 3000));
    const outcome = runInAgentChat(wb!.page, mock, "python3 cleanup.py");
    outcome.catch(() => undefined);
    const prompt = wb!.page.getByText("Missing Sandbox Dependencies");
    for (let i = 0; i < 240 && (await prompt.count()) === 0; i++) await new Promise((r) => setTimeout(r, 250));
    assert.ok((await prompt.count()) > 0, "VS Code did not hold the command for its missing sandbox");
    // Install would run the system's package manager: the user says no.
    await wb!.page.getByRole("button", { name: "Cancel", exact: true }).first().click();
    const o = await outcome;
    assert.ok(!o.text.includes(SECRET), `the secret reached the model: ${o.text}`);
    assert.match(o.text, /cancelled/i, o.text);
    assert.equal(fs.readFileSync(configFile(), "utf8"), CONFIG, o.text);
  });
});
