// The rules in the real workbench: a broken rules file's squiggles and Problems entries, the
// panel's counts (and their live update when the file changes), and "try a command".
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { openFixtureWorkbench, showPanel, waitForStatus, type DcWorkbench } from "../support/dc-ui";
import { BROKEN_EXPECTED, BROKEN_RELATIVE, BROKEN_RULES_TEXT, FIXTURE_COUNTS, FIXTURE_RULES, PUSH_PATTERN, RM_PATTERN } from "../support/fixture-workspace";
import { openFile, openProblems, screenshot, screenshotOnFailure, sel } from "../support/workbench";

/** The text of each broken line, to find it on screen. */
const BROKEN_LINES = BROKEN_RULES_TEXT.split("\n");

/** The visible editor line showing `text` (ignoring surrounding spaces). */
function editorLine(page: Page, text: string): Locator {
  return page.locator(sel.editorLine).filter({ visible: true }).filter({ hasText: text.trim() }).first();
}

/** Whether an error squiggle is drawn over the on-screen line showing `text` (false while that
 *  line is not rendered). */
async function squiggleOn(page: Page, text: string): Promise<boolean> {
  const line = await editorLine(page, text).boundingBox();
  if (!line) return false;
  for (const s of await page.locator(sel.editorSquiggleError).all()) {
    const b = await s.boundingBox();
    if (b && b.y + b.height / 2 > line.y && b.y + b.height / 2 < line.y + line.height) return true;
  }
  return false;
}

suite("rules in the workbench", function () {
  this.timeout(120_000);
  let dc: DcWorkbench | undefined;

  suiteSetup(async () => {
    dc = await openFixtureWorkbench("ui-rules");
  });

  teardown(async function () {
    await screenshotOnFailure(this, dc?.wb.page);
  });

  suiteTeardown(async () => {
    await dc?.close();
  });

  test("a broken rules file shows error squiggles on the lines of its mistakes, and only there", async () => {
    const { page } = dc!.wb;
    await openFile(page, BROKEN_RELATIVE);
    await page.locator(sel.editorSquiggleError).first().waitFor({ state: "visible", timeout: 15_000 });
    for (const d of BROKEN_EXPECTED) {
      const text = BROKEN_LINES[d.line];
      let found = false;
      for (const deadline = Date.now() + 5000; !found && Date.now() < deadline; ) {
        found = await squiggleOn(page, text);
        if (!found) await page.waitForTimeout(200);
      }
      assert.ok(found, `no error squiggle on line ${d.line + 1} ("${text.trim()}")`);
    }
    for (const clean of [1, 3, 8]) {
      await editorLine(page, BROKEN_LINES[clean]).waitFor({ state: "visible", timeout: 5000 });
      assert.equal(await squiggleOn(page, BROKEN_LINES[clean]), false, `squiggle on good line ${clean + 1} ("${BROKEN_LINES[clean].trim()}")`);
    }

    // The message is on the squiggle too.
    await editorLine(page, "zeroAcessPaths:").locator("span", { hasText: "zeroAcessPaths" }).first().hover();
    const hover = page.locator(sel.hover, { hasText: "Did you mean" }).first();
    await hover.waitFor({ state: "visible", timeout: 10_000 });
    assert.match(await hover.innerText(), /Unknown key "zeroAcessPaths"\. Did you mean "zeroAccessPaths"\?/);
    await screenshot(page, "diagnostics-squiggle");
    await page.mouse.move(5, 400);
  });

  test("the Problems panel lists each mistake of the broken file at its line and column", async () => {
    const { page } = dc!.wb;
    let rows: string[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await page.waitForTimeout(300)) {
      rows = await openProblems(page);
      if (BROKEN_EXPECTED.every((d) => rows.some((r) => r.includes(`[Ln ${d.line + 1}, Col ${d.character + 1}]`)))) break;
    }
    for (const d of BROKEN_EXPECTED) {
      const row = rows.find((r) => r.includes(`[Ln ${d.line + 1}, Col ${d.character + 1}]`));
      assert.ok(row, `no Problems entry at Ln ${d.line + 1}, Col ${d.character + 1}: ${JSON.stringify(rows)}`);
      assert.match(row, d.message);
      assert.ok(row.includes(`damage-control ${d.code}`), `source/code missing: ${row}`);
    }
    assert.ok(rows.some((r) => r.includes("damage-control-rules.yaml") && r.includes("broken/.pi")), `no file row for the broken file: ${JSON.stringify(rows)}`);
    await screenshot(page, "problems-panel");
    await page.keyboard.press("Control+Shift+M"); // hide it again
  });

  test("the panel's counts match the rules file, and follow it when it changes on disk", async () => {
    const { page } = dc!.wb;
    const { rulesFile } = dc!.fx;
    const panel = await showPanel(page);
    const counts = async () => {
      const out: Record<string, string> = {};
      for (const kind of ["bash patterns", "zero-access", "read-only", "no-delete", "total"]) {
        out[kind] = (await panel.locator(`#counts td.num[data-kind="${kind}"]`).innerText()).trim();
      }
      return out;
    };
    const expected = (c: { bashPatterns: number; ask: number; zeroAccess: number; readOnly: number; noDelete: number; total: number }) => ({
      "bash patterns": `${c.bashPatterns} (${c.ask} ask)`,
      "zero-access": String(c.zeroAccess),
      "read-only": String(c.readOnly),
      "no-delete": String(c.noDelete),
      total: String(c.total),
    });
    assert.deepEqual(await counts(), expected(FIXTURE_COUNTS));
    assert.equal((await panel.locator("#counts th").first().innerText()).trim(), rulesFile);
    assert.match(await panel.locator("#counts").innerText(), /Rules file healthy/);
    assert.equal((await panel.locator("#status").innerText()).trim(), `Endpoint ${dc!.url}`);
    await waitForStatus(page, new RegExp(`^${FIXTURE_COUNTS.total} rules · `));
    await screenshot(page, "panel-counts");

    // One more no-delete path on disk: the panel and the status bar follow without a reload.
    fs.writeFileSync(rulesFile, FIXTURE_RULES + "  - logs/\n");
    try {
      const more = { ...FIXTURE_COUNTS, noDelete: FIXTURE_COUNTS.noDelete + 1, total: FIXTURE_COUNTS.total + 1 };
      await waitFor(async () => JSON.stringify(await counts()) === JSON.stringify(expected(more)), 10_000, async () => `panel counts ${JSON.stringify(await counts())}`);
      await waitForStatus(page, new RegExp(`^${more.total} rules · `));
    } finally {
      fs.writeFileSync(rulesFile, FIXTURE_RULES);
    }
    await waitFor(async () => JSON.stringify(await counts()) === JSON.stringify(expected(FIXTURE_COUNTS)), 10_000, async () => `panel counts back ${JSON.stringify(await counts())}`);
  });

  test("the panel's rules editor shows the file as it is on disk after it changed outside the panel", async () => {
    // Otherwise the panel's Save would silently write the old rows over the newer file.
    const { page } = dc!.wb;
    const { rulesFile } = dc!.fx;
    const panel = await showPanel(page);
    const paths = () => panel.locator('table.rules[data-list="noDeletePaths"] tbody.rule input.f-value').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const same = (want: string[]) => async () => JSON.stringify(await paths()) === JSON.stringify(want);
    const now = async () => `no-delete rows ${JSON.stringify(await paths())}`;
    await waitFor(same(["data/", "archive/", "*.sqlite"]), 10_000, now);
    const changed = FIXTURE_RULES.replace("  - data/\n", "  - data/\n  - backups/\n");
    fs.writeFileSync(rulesFile, changed);
    try {
      await waitFor(same(["data/", "backups/", "archive/", "*.sqlite"]), 10_000, now);
    } finally {
      fs.writeFileSync(rulesFile, FIXTURE_RULES);
    }
    await waitFor(same(["data/", "archive/", "*.sqlite"]), 10_000, now);

    // With unsaved edits in the panel, a change on disk does not throw them away: it is flagged,
    // and Save is refused (it would overwrite the newer file).
    const last = panel.locator('table.rules[data-list="noDeletePaths"] tbody.rule[data-index="2"] input.f-value');
    await last.fill("*.sqlite3");
    await waitFor(async () => !(await panel.locator("#revert").isDisabled()), 10_000, async () => "the draft is not marked as edited");
    fs.writeFileSync(rulesFile, changed);
    try {
      const note = panel.locator("#save-result");
      await waitFor(async () => /changed on disk/.test(await note.innerText()), 10_000, async () => `save-result "${await note.innerText()}"`);
      assert.deepEqual(await paths(), ["data/", "archive/", "*.sqlite3"], "the unsaved edits were replaced");
      await panel.locator("#save").click();
      await waitFor(async () => /^Not saved: the rules file changed on disk/.test(await note.innerText()), 10_000, async () => `save-result "${await note.innerText()}"`);
      assert.equal(fs.readFileSync(rulesFile, "utf8"), changed, "Save overwrote the newer file");
      // Revert loads the file as it is now.
      await panel.locator("#revert").click();
      await waitFor(same(["data/", "backups/", "archive/", "*.sqlite"]), 10_000, now);
    } finally {
      fs.writeFileSync(rulesFile, FIXTURE_RULES);
    }
    await waitFor(same(["data/", "archive/", "*.sqlite"]), 10_000, now);
  });

  test("try a command shows the decision, the rule and the matched part", async () => {
    const { page } = dc!.wb;
    const panel = await showPanel(page);
    const attempt = async (tool: string, value: string) => {
      await panel.locator("#try-tool").selectOption(tool);
      await panel.locator("#try-input").fill(value);
      const old = await panel.locator("#try-result").innerText();
      await panel.locator("#try-run").click();
      await waitFor(async () => (await panel.locator("#try-result").innerText()) !== old && (await panel.locator("#try-result .decision").count()) > 0, 10_000, async () => `a result for ${value}`);
      return tryResult(panel);
    };

    // A compound command: only the part that runs rm is the match, at its place in the whole line.
    const rm = await attempt("bash", "cd build && rm -rf dist");
    assert.equal(rm.decision, "BLOCK");
    assert.ok(rm.rule.includes(`/${RM_PATTERN}/`), rm.rule);
    assert.equal(rm.mark, "rm -rf dist");
    assert.equal(rm.matchLine, "cd build && rm -rf dist");
    assert.ok(rm.before === "cd build && ", `text before the mark: "${rm.before}"`);
    assert.match(rm.reason, /recursive or forced rm/);
    await panel.locator("#try-result").scrollIntoViewIfNeeded();
    await screenshot(page, "try-a-command");

    const push = await attempt("bash", "git push origin main");
    assert.equal(push.decision, "ASK");
    assert.ok(push.rule.includes(`/${PUSH_PATTERN}/`), push.rule);
    assert.equal(push.mark, "git push origin main");

    const env = await attempt("read", ".env");
    assert.equal(env.decision, "BLOCK");
    assert.ok(env.rule.includes('zero-access path ".env"'), env.rule);
    await screenshot(page, "try-a-command-zero-access");

    const ls = await attempt("bash", "ls -la");
    assert.equal(ls.decision, "ALLOW");
    assert.equal(ls.rule, "");
  });
});

async function tryResult(panel: FrameLocator) {
  const r = panel.locator("#try-result");
  const text = async (s: string) => ((await r.locator(s).count()) ? (await r.locator(s).first().innerText()).trim() : "");
  const rule = (await r.locator("div", { hasText: /^Rule: / }).count()) ? (await r.locator("div", { hasText: /^Rule: / }).first().innerText()).trim() : "";
  const matchLine = await text(".match");
  const mark = await text(".match mark");
  const before = (await r.locator(".match").count()) ? await r.locator(".match").evaluate((el) => (el.firstChild?.nodeType === 3 ? el.firstChild.textContent ?? "" : "")) : "";
  return { decision: await text(".decision"), rule, mark, matchLine, before, reason: await text(".muted") };
}

async function waitFor(check: () => Promise<boolean>, ms: number, what: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${await what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
