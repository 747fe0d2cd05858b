// UI tests: plain mocha (tdd) in Node, driving a real workbench through Chromium.
// One workbench per suite (opening one costs 7-30 s on 2 CPUs); see test/vscode/support/workbench.ts.
// These use only VS Code built-ins besides our status bar item, so they also check the harness's
// helpers (command palette, modal, webview frames, Problems panel) against the pinned code-server.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  clickModalButton, openFile, openProblems, openWorkbench, readModal, runCommand, screenshot, screenshotOnFailure,
  sel, statusBarText, STATUS_ITEM_ID, webviewFrame, type Workbench,
} from "../support/workbench";

suite("workbench", function () {
  this.timeout(120_000);
  let wb: Workbench | undefined;
  let workspace: string;

  suiteSetup(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), "dc-ui-ws-"));
    fs.writeFileSync(path.join(workspace, "notes.md"), "# Harness check\n\nRendered in a webview.\n");
    fs.writeFileSync(path.join(workspace, "broken.json"), '{ "a": 1 "b": 2 }\n');
    wb = await openWorkbench({ workspaceFolder: workspace });
  });

  teardown(async function () {
    await screenshotOnFailure(this, wb?.page);
  });

  suiteTeardown(async () => {
    await wb?.close();
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  test("loads with the Damage Control status bar item", async () => {
    // No rules file in this workspace: the embedded defaults are in force.
    assert.match(await statusBarText(wb!.page, STATUS_ITEM_ID), /^\d+ rules · 0 refusals$/);
    const file = await screenshot(wb!.page, "workbench-loaded");
    assert.ok(fs.statSync(file).size > 10_000, "screenshot looks empty");
  });

  test("command palette runs a command; its modal dialog can be read and answered", async () => {
    const page = wb!.page;
    await runCommand(page, "Help: About");
    const modal = await readModal(page);
    assert.match(modal.detail + modal.message, /1\.139/);
    assert.ok(modal.buttons.includes("OK"), `buttons: ${modal.buttons}`);
    await clickModalButton(page, "OK");
    assert.equal(await page.locator(sel.dialog).count(), 0);
  });

  test("a webview's content is reachable through both iframes", async () => {
    await openFile(wb!.page, "notes.md");
    await runCommand(wb!.page, "Markdown: Open Preview to the Side");
    const h1 = webviewFrame(wb!.page).locator("h1");
    await h1.waitFor({ state: "visible", timeout: 30_000 });
    assert.equal((await h1.innerText()).trim(), "Harness check");
  });

  test("the Problems panel lists a file's diagnostics", async () => {
    await openFile(wb!.page, "broken.json");
    let rows: string[] = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      rows = await openProblems(wb!.page);
      if (rows.some((r) => /broken\.json/.test(r)) && rows.length > 1) break;
    }
    assert.ok(rows.some((r) => /broken\.json/.test(r)), `rows: ${JSON.stringify(rows)}`);
    assert.ok(rows.some((r) => /expected/i.test(r)), `rows: ${JSON.stringify(rows)}`);
    await screenshot(wb!.page, "harness-problems-panel");
  });
});
