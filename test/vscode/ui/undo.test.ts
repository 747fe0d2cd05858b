// Restore from the feed, in the real workbench: an allowed `rm README.md` is kept before it runs,
// its feed entry offers Restore, the modal lists what will be put back, and confirming it brings
// the file back byte for byte. Control: the file is really gone before the click. Then Undo
// restore (issue 38): an overwrite restored, then taken back, leaves the agent's version in place
// again with no set-aside copy, and the entry offers Restore again.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { openFixtureWorkbench, showPanel, widenSideBar, type DcWorkbench } from "../support/dc-ui";
import { bashHook, permission, postClaudeHook } from "../support/fixture-workspace";
import { clickModalButton, readModal, readNotifications, screenshot, screenshotOnFailure } from "../support/workbench";

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
    // Changed on purpose (issue 38): "Remote services are never kept." is said only where a remote is involved.
    assert.equal((await item.locator(".feed-snapshot").innerText()).trim(), "snapshot kept: README.md.");
    // Only the actions that apply to an allowed call with a snapshot: no rule to open, nothing to allow.
    assert.equal(await item.locator("button.act-open").count(), 0);
    assert.equal(await item.locator("button.act-allow").count(), 0);
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
    // It answers (issue 38): the entry's Restore becomes Restored, with the same text as the toast.
    await item.locator(".act-restored").waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(await item.locator("button.act-restore").count(), 0, "the entry still offers Restore");
    assert.equal((await item.locator(".entry-note").innerText()).trim(), "Restored README.md.");
    let toast = "";
    for (const end = Date.now() + 10_000; !toast && Date.now() < end; await page.waitForTimeout(200)) toast = (await readNotifications(page)).find((m) => m.startsWith("Restored README.md.")) ?? "";
    assert.ok(toast, "no toast after Restore");
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, "undo-feed-restored");
  });

  test("an overwrite restored, then Undo restore: the agent's version is back, no copy is left aside, and the entry offers Restore again", async () => {
    const { page } = dc!.wb;
    const file = path.join(dc!.fx.workspace, "app.yaml");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "port: 8080\n");
    const command = "echo 'port: 9090' > app.yaml";
    const answer = await postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, command));
    assert.notEqual(permission(answer)?.decision, "deny", JSON.stringify(answer.body));
    // The agent's call runs.
    fs.writeFileSync(file, "port: 9090\n");
    const panel = await showPanel(page);
    const item = panel.locator("#feed li", { hasText: command }).first();
    await item.waitFor({ state: "visible", timeout: 15_000 });
    await item.locator("button.act-restore").click();
    await clickModalButton(page, "Restore");
    await item.locator(".act-restored").waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(fs.readFileSync(file, "utf8"), "port: 8080\n");
    const aside = () => fs.readdirSync(path.dirname(file)).filter((n) => n.startsWith("app.yaml.before-restore-"));
    assert.equal(aside().length, 1, "the control: the restore set the agent's version aside");
    await notificationStarting(page, "Restored app.yaml.");

    // Restored, with Undo restore beside it.
    const undo = item.locator("button.act-undo-restore");
    assert.equal((await undo.innerText()).trim(), "Undo restore");
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, "undo-feed-undo-restore");
    await undo.click();
    const deadline = Date.now() + 10_000;
    while (fs.readFileSync(file, "utf8") !== "port: 9090\n" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.readFileSync(file, "utf8"), "port: 9090\n", "the agent's version is back in place");
    assert.deepEqual(aside(), [], "the set-aside copy went back in place");
    await notificationStarting(page, "Restore undone. app.yaml is back as it was before the restore.");
    assert.equal((await item.locator(".entry-note").innerText()).trim(), "Restore undone. app.yaml is back as it was before the restore.");
    // The entry offers Restore again, and no longer says Restored.
    await item.locator("button.act-restore").waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(await item.locator(".act-restored").count(), 0);
    assert.equal(await undo.count(), 0);
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, "undo-feed-restore-undone");
  });
});

/** Waits for a toast whose text starts with `prefix`. */
async function notificationStarting(page: Page, prefix: string): Promise<void> {
  let toast = "";
  for (const end = Date.now() + 10_000; !toast && Date.now() < end; await page.waitForTimeout(200)) toast = (await readNotifications(page)).find((m) => m.startsWith(prefix)) ?? "";
  assert.ok(toast, `no toast starting "${prefix}": ${JSON.stringify(await readNotifications(page))}`);
}
