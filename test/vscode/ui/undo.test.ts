// Restore from the feed, in the real workbench: an allowed `rm README.md` is kept before it runs,
// its feed entry offers Restore, the modal lists what will be put back, and confirming it brings
// the file back byte for byte. Control: the file is really gone before the click.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openFixtureWorkbench, showPanel, widenSideBar, type DcWorkbench } from "../support/dc-ui";
import { bashHook, permission, postClaudeHook } from "../support/fixture-workspace";
import { clickModalButton, readModal, screenshot, screenshotOnFailure } from "../support/workbench";

suite("undo: Restore in the feed", function () {
  this.timeout(180_000);
  let dc: DcWorkbench | undefined;

  suiteSetup(async () => {
    dc = await openFixtureWorkbench("ui-undo");
    await widenSideBar(dc.wb.page, 480);
  });
  teardown(async function () {
    await screenshotOnFailure(this, dc?.wb.page);
  });
  suiteTeardown(async () => {
    await dc?.close();
  });

  test("an allowed rm keeps a snapshot; Restore lists it, asks, and puts the file back", async () => {
    const { page } = dc!.wb;
    const file = path.join(dc!.fx.workspace, "README.md");
    const before = fs.readFileSync(file);
    const answer = await postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, "rm README.md"));
    assert.notEqual(permission(answer)?.decision, "deny", JSON.stringify(answer.body));
    // The agent's call runs.
    fs.rmSync(file);
    assert.equal(fs.existsSync(file), false);

    const panel = await showPanel(page);
    const item = panel.locator('#feed li[data-outcome="let-through"]').first();
    await item.waitFor({ state: "visible", timeout: 15_000 });
    assert.equal((await item.locator(".feed-target").innerText()).trim(), "rm README.md");
    assert.match(await item.locator(".feed-snapshot").innerText(), /snapshot kept: README\.md\. Remote services are never kept\./);
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, "undo-feed-restore");
    await item.locator("button.act-restore").click();

    const modal = await readModal(page);
    assert.match(modal.message, /Restore what Damage Control kept/);
    assert.match(modal.detail, /Put back: README\.md/);
    await clickModalButton(page, "Restore");
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(fs.readFileSync(file), before);
  });
});
