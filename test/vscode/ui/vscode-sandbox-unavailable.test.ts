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
import { runInAgentChat, waitFor } from "../support/chat-agent";
import { CONFIG, openSandboxScenario, SECRET, type SandboxScenario } from "../support/sandbox-scenario";
import { runCommand, screenshotOnFailure } from "../support/workbench";
import { pathWithout } from "../../support/path-without";

suite("fail-closed matrix: VS Code's agent, sandbox required, no bubblewrap on this machine", function () {
  this.timeout(300_000);
  let s: SandboxScenario | undefined;

  suiteSetup(async function () {
    s = await openSandboxScenario("vscode-sandbox-unavailable", (dir) => ({ PATH: pathWithout(path.join(dir, "bin-without-bwrap"), ["bwrap"]) }));
  });
  teardown(async function () {
    await screenshotOnFailure(this, s?.wb.page);
  });
  suiteTeardown(async () => {
    await s?.close();
  });

  test("python3 cleanup.py: VS Code holds it for the missing bubblewrap; Cancel → nothing ran, the secret is not read, config/ unchanged", async () => {
    const page = s!.wb.page;
    await runCommand(page, "Damage Control: Guard VS Code's Agent");
    await waitFor("the sandbox settings", () => s!.userSettings()["chat.agent.sandbox.enabled"] === true || undefined, 30_000);
    await new Promise((r) => setTimeout(r, 3000));
    const outcome = runInAgentChat(page, s!.mock, "python3 cleanup.py");
    outcome.catch(() => undefined);
    const prompt = page.getByText("Missing Sandbox Dependencies");
    for (let i = 0; i < 240 && (await prompt.count()) === 0; i++) await new Promise((r) => setTimeout(r, 250));
    assert.ok((await prompt.count()) > 0, "VS Code did not hold the command for its missing sandbox");
    // Install would run the system's package manager: the user says no.
    await page.getByRole("button", { name: "Cancel", exact: true }).first().click();
    const o = await outcome;
    assert.ok(!o.text.includes(SECRET), `the secret reached the model: ${o.text}`);
    assert.match(o.text, /cancelled/i, o.text);
    assert.equal(fs.readFileSync(s!.configFile(), "utf8"), CONFIG, o.text);
  });
});
