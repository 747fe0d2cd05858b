// Layers in the real workbench (issue 15): a workspace rules file that disables defaults shows the
// approval notification and does not apply until Approve; a workspace .vscode/settings.json with
// damageControl.enabled: false does not switch the guard off (warning shown); "Always allow in this
// folder" in the ask modal writes the exception to the user's rules and the next identical call is
// not asked.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { openFixtureWorkbench, type DcWorkbench } from "../support/dc-ui";
import { bashHook, permission, postClaudeHook, PUSH_PATTERN, PUSH_REASON } from "../support/fixture-workspace";
import { clickModalButton, expandNotification, readModal, readNotifications, screenshot, screenshotOnFailure, sel } from "../support/workbench";

/** A workspace rules file that switches the default rm rules off (and has no rm rule of its own), plus the fixture's ask rule. */
const DROPS = `disable: [rm-recursive-force, rm-recursive-force-long]\nbashToolPatterns:\n  - pattern: '${PUSH_PATTERN}'\n    reason: ${PUSH_REASON}\n    ask: true\n`;

/** Clicks a button of the notification-center row whose message contains `text`. */
async function clickNotificationButton(page: Page, text: string, label: string): Promise<void> {
  const row = page.locator(sel.notificationsCenterRow, { hasText: text }).first();
  await row.locator("a.monaco-button, .monaco-button", { hasText: label }).first().click({ timeout: 10_000 });
}

async function waitForNotification(page: Page, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await readNotifications(page);
    const hit = all.find((m) => pattern.test(m));
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no notification matches ${pattern}; have:\n${all.join("\n")}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

suite("rule layers in the workbench", function () {
  this.timeout(180_000);
  let dc: DcWorkbench | undefined;

  suiteSetup(async () => {
    dc = await openFixtureWorkbench("ui-layers", {}, (fx) => {
      fs.writeFileSync(fx.rulesFile, DROPS);
      fs.mkdirSync(path.join(fx.workspace, ".vscode"), { recursive: true });
      fs.writeFileSync(path.join(fx.workspace, ".vscode", "settings.json"), '{\n  // a repository trying to switch the guard off\n  "damageControl.enabled": false\n}\n');
    });
  });

  teardown(async function () {
    await screenshotOnFailure(this, dc?.wb.page);
    const page = dc?.wb.page;
    if (page && (await page.locator(sel.dialog).isVisible())) await clickModalButton(page, "Cancel").catch(() => undefined);
  });

  suiteTeardown(async () => {
    await dc?.close();
  });

  test("a workspace damageControl.enabled: false does not switch the guard off, and a warning says so", async () => {
    // The endpoint is up (openFixtureWorkbench waited for it), and it refuses what the floor refuses.
    const answer = await postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, "sudo ls"));
    assert.equal(permission(answer)?.decision, "deny", JSON.stringify(answer.body));
    await waitForNotification(dc!.wb.page, /damageControl\.enabled.*may not loosen/);
  });

  test("a rules file that drops defaults shows the approval notification; rm -rf notes is refused until Approve, then the file applies", async () => {
    const page = dc!.wb.page;
    // A command only the dropped rules decide: no path rule refuses deleting notes/ (unlike `rm -rf ~`,
    // refused below ~/.ssh/ either way) and notes/ is no build output (unlike `rm -rf build`,
    // regenerable, allowed either way).
    const command = "rm -rf notes";
    const before = await postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, command));
    assert.equal(permission(before)?.decision, "deny", JSON.stringify(before.body));
    assert.match(permission(before)!.reason, /recursive or forced rm/, "refused by the default rm rule the file drops");
    const message = await waitForNotification(page, /drops 2 default rule\(s\)/);
    assert.match(message, /rm-recursive-force/);
    await expandNotification(page, "drops 2 default rule");
    await screenshot(page, "layers-approval-notification");
    await clickNotificationButton(page, "drops 2 default rule", "Approve");
    // After Approve the workspace file applies as written: the default rm rules are off.
    const deadline = Date.now() + 15_000;
    let after;
    for (;;) {
      after = await postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, command));
      if (permission(after)?.decision !== "deny" || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.notEqual(permission(after)?.decision, "deny", JSON.stringify(after.body));
    assert.notEqual(permission(after)?.decision, "ask", JSON.stringify(after.body));
    const approvals = JSON.parse(fs.readFileSync(path.join(dc!.fx.stateDir, "approvals.json"), "utf8"));
    assert.equal(approvals.approvals[0].file, dc!.fx.rulesFile);
  });

  test("Always allow in this folder writes the exception to the user's rules; the next identical call is not asked", async () => {
    const page = dc!.wb.page;
    const command = "git push origin feature";
    const first = postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, command));
    const modal = await readModal(page, 15_000);
    assert.ok(modal.buttons.includes("Always allow in this folder"), modal.buttons.join(", "));
    await screenshot(page, "layers-always-allow-modal");
    await clickModalButton(page, "Always allow in this folder");
    assert.equal(permission(await first)?.decision, "allow");
    const userRules = fs.readFileSync(dc!.fx.env.DAMAGE_CONTROL_USER_RULES, "utf8");
    assert.match(userRules, /git push origin feature/);
    assert.ok(userRules.includes(dc!.fx.workspace), "the exception is scoped to this folder");
    assert.doesNotMatch(fs.readFileSync(dc!.fx.rulesFile, "utf8"), /^allow:/m, "never the workspace file");
    const again = await postClaudeHook(dc!.url, dc!.token, bashHook(dc!.fx.workspace, command));
    assert.notEqual(permission(again)?.decision, "ask");
    assert.notEqual(permission(again)?.decision, "deny", JSON.stringify(again.body));
    assert.equal(await page.locator(sel.dialog).isVisible(), false, "asked again");
  });
});
