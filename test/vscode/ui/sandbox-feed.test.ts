// Issue 34, item 5, in the real workbench: what the sandbox's kernel refused is shown in the
// panel's feed, with the path and the rule behind it. The extension's endpoint gets Codex's hook
// payloads in the shapes measured with Codex CLI 0.171.0: the PreToolUse of a harmless
// `python3 cleanup.py` (Codex asks nobody), answered with our runner's wrapper, then the
// PostToolUse of that wrapper with the output the kernel's refusal gives inside it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openFixtureWorkbench, panelFrame, showPanel, widenSideBar, type DcWorkbench } from "../support/dc-ui";
import { request } from "../support/fixture-workspace";
import { screenshot, screenshotOnFailure } from "../support/workbench";
import { needsSandbox } from "../../support/needs-sandbox";

suite("the panel's feed: the sandbox's kernel refusals", function () {
  this.timeout(180_000);
  let dc: DcWorkbench | undefined;

  suiteSetup(async function () {
    needsSandbox(this, "bwrap");
    // .env as a bare name in the rules is a glob: the policy lists the files that match it, so it exists first.
    dc = await openFixtureWorkbench("ui-sandbox-feed", {}, (fx) => fs.writeFileSync(path.join(fx.workspace, ".env"), "API_KEY=never-show-this\n"));
    await showPanel(dc.wb.page);
    await widenSideBar(dc.wb.page, 480);
  });

  teardown(async function () {
    await screenshotOnFailure(this, dc?.wb.page);
  });

  suiteTeardown(async () => {
    await dc?.close();
  });

  test("a sandboxed call's refused read of .env: listed under Refused, naming the path and the rule; no Allow in this folder", async () => {
    const { page } = dc!.wb;
    const ws = dc!.fx.workspace;
    const base = { session_id: "ui-sandbox", cwd: ws, permission_mode: "bypassPermissions", tool_name: "Bash", tool_use_id: "call_1" };
    const pre = await request(dc!.url, dc!.token, "POST", "/hook/codex", { ...base, hook_event_name: "PreToolUse", tool_input: { command: "python3 cleanup.py" } });
    const wrapper = (pre.body as { hookSpecificOutput?: { updatedInput?: { command?: string } } }).hookSpecificOutput?.updatedInput?.command;
    assert.match(wrapper ?? "", /\/sandbox\/run'? [0-9a-f]{32} 'python3 cleanup\.py'$/, JSON.stringify(pre.body));
    const post = await request(dc!.url, dc!.token, "POST", "/hook/codex", { ...base, hook_event_name: "PostToolUse", tool_input: { command: wrapper }, tool_response: "read failed: [Errno 13] Permission denied: '.env'\n" });
    assert.deepEqual(post.body, {}, "the post-tool event gets no opinion");

    const panel = await panelFrame(page);
    const item = panel.locator('#feed li[data-outcome="kernel-refused"]').first();
    await item.waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await item.getAttribute("data-kind"), "refused");
    assert.equal((await item.locator(".feed-outcome").innerText()).trim(), "refused by the kernel (sandbox)");
    assert.equal((await item.locator(".feed-target").innerText()).trim(), "python3 cleanup.py");
    assert.equal((await item.locator(".feed-kernel-path").innerText()).trim(), path.join(ws, ".env"));
    assert.match(await item.locator(".feed-kernel").innerText(), /the kernel refused reading .*\.env · rule .+ \(zero-access path \(\.env\)\)/);
    assert.match(await item.locator(".feed-sandbox").innerText(), /ran in the sandbox/);
    assert.equal(await item.locator("button.act-allow").count(), 0, "no exception opens a path to the kernel");
    assert.doesNotMatch(await item.innerText(), /never-show-this/);
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, "panel-feed-kernel-refusal");
  });
});
