// The walkthrough's steps complete from the real state (issue 38), in the real workbench: the
// fixture has a rules file of its own (as the demo does) and no agent wired, so "Create a rules
// file" shows done from the start and the agent steps do not; the "Guard VS Code's Agent" step's
// own button then writes the hook file, and that step ticks. Control: before the click, the step
// is not done.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { openFixtureWorkbench, openWalkthrough, type DcWorkbench } from "../support/dc-ui";
import { screenshot, screenshotOnFailure, sel } from "../support/workbench";

/** The step's check mark: VS Code sets aria-checked on [data-done-step-id] from its progress. */
const done = async (page: Page, step: string) => (await page.locator(`[data-done-step-id$="#${step}"]`).first().getAttribute("aria-checked")) === "true";

async function waitFor(check: () => Promise<boolean>, ms: number, what: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${await what()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

suite("the walkthrough's steps complete from the real state", function () {
  this.timeout(240_000);
  let dc: DcWorkbench | undefined;
  const hookFile = () => path.join(dc!.fx.env.HOME, ".copilot", "hooks", "damage-control.json");

  suiteSetup(async () => {
    // A HOME of the test's own: the hook file goes to ~/.copilot/hooks.
    dc = await openFixtureWorkbench("ui-walkthrough", {}, (fx) => {
      fx.env.HOME = path.join(path.dirname(fx.workspace), "home");
      fs.mkdirSync(fx.env.HOME, { recursive: true });
    });
  });
  teardown(async function () {
    await screenshotOnFailure(this, dc?.wb.page);
  });
  suiteTeardown(async () => {
    await dc?.close();
  });

  test("a rules file already there shows done at once; Guard VS Code's Agent ticks its step when the hook file is written", async () => {
    const { page } = dc!.wb;
    assert.ok(fs.existsSync(dc!.fx.rulesFile), "the fixture has a rules file");
    await openWalkthrough(page);
    const states = async () => JSON.stringify({ rules: await done(page, "rules"), agents: await done(page, "agents"), vscodeAgent: await done(page, "vscodeAgent") });
    // The rules file was there before the walkthrough registered: done all the same.
    await waitFor(async () => await done(page, "rules"), 15_000, async () => `steps ${await states()}`);
    // Nothing else is done: no agent is wired, VS Code's agent is not guarded (no lying).
    assert.equal(await states(), JSON.stringify({ rules: true, agents: false, vscodeAgent: false }));
    assert.equal(fs.existsSync(hookFile()), false);
    await screenshot(page, "walkthrough-steps-done");

    // The step's own button, as the user clicks it.
    await page.locator(`${sel.walkthroughStep}[data-step-id$="#vscodeAgent"]`).click();
    await page.locator(`${sel.walkthroughStep}[data-step-id$="#vscodeAgent"] .button-link, ${sel.walkthroughStep}[data-step-id$="#vscodeAgent"] a`).filter({ hasText: "Guard VS Code's Agent" }).first().click();
    await waitFor(async () => fs.existsSync(hookFile()), 15_000, async () => "no hook file written");
    await waitFor(async () => await done(page, "vscodeAgent"), 15_000, async () => `steps ${await states()}`);
    assert.equal(await states(), JSON.stringify({ rules: true, agents: false, vscodeAgent: true }));
    await screenshot(page, "walkthrough-step-ticked");
  });
});
