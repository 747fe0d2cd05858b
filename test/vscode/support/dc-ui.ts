// Helpers for the UI suites that drive Damage Control itself (ui/asks, ui/rules): a workbench on
// a fresh fixture workspace with its own state dir, the endpoint as an agent finds it, the panel.
import type { FrameLocator, Page } from "playwright-core";
import { makeFixture, request, waitForEndpoint, type Fixture, type HttpAnswer } from "./fixture-workspace";
import { openWorkbench, runCommand, sel, statusBarText, STATUS_ITEM_ID, webviewFrame, type Workbench } from "./workbench";

export interface DcWorkbench {
  wb: Workbench;
  fx: Fixture;
  /** The endpoint, found like an agent finds it: the registry and token in the fixture's state dir. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** A workbench on a new fixture workspace; resolves once the endpoint answers /health. */
export async function openFixtureWorkbench(label: string, settings: Record<string, unknown> = {}, prepare?: (fx: Fixture) => void): Promise<DcWorkbench> {
  const fx = makeFixture(label);
  prepare?.(fx);
  let wb: Workbench | undefined;
  try {
    wb = await openWorkbench({ workspaceFolder: fx.workspace, env: fx.env, settings });
    const { url, token } = await waitForEndpoint(fx);
    const opened = wb;
    return {
      wb,
      fx,
      url,
      token,
      async close() {
        await opened.close();
        fx.cleanup();
      },
    };
  } catch (e) {
    await wb?.close();
    fx.cleanup();
    throw e;
  }
}

/** Waits until our status bar item's text (codicons dropped) matches. */
export async function waitForStatus(page: Page, want: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = "";
  for (;;) {
    text = await statusBarText(page, STATUS_ITEM_ID);
    if (want.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`status bar says "${text}", expected ${want}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs "Damage Control: Show Panel" and returns the panel's content frame (see panelFrame). */
export async function showPanel(page: Page): Promise<FrameLocator> {
  await runCommand(page, "Damage Control: Show Panel");
  return panelFrame(page);
}

/** The panel's content frame, once it has rendered its counts. Our panel is the only webview
 *  these suites open. Usable while a modal blocks the command palette. */
export async function panelFrame(page: Page): Promise<FrameLocator> {
  const frame = webviewFrame(page);
  await frame.locator('#counts td.num[data-kind="total"]').waitFor({ state: "visible", timeout: 30_000 });
  return frame;
}

/** GET /health (decisions and refusals so far, rule counts). */
export async function health(dc: DcWorkbench): Promise<HttpAnswer["body"]> {
  const h = await request(dc.url, dc.token, "GET", "/health");
  if (h.status !== 200) throw new Error(`/health answered ${h.status}`);
  return h.body;
}

/** A request that can be checked for "still pending" without awaiting it. */
export function track<T>(p: Promise<T>): { promise: Promise<T>; done: () => boolean } {
  let finished = false;
  const promise = p.finally(() => (finished = true));
  promise.catch(() => undefined);
  return { promise, done: () => finished };
}

/** Drags the side bar's edge so it is `width` px wide (for readable panel screenshots). */
export async function widenSideBar(page: Page, width: number): Promise<void> {
  const box = await page.locator(sel.sidebar).boundingBox();
  if (!box) throw new Error("the side bar is not shown");
  const x = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
}

/** Opens the walkthrough "Guard your coding agents" from the palette, as a user does; waits for its first step. */
export async function openWalkthrough(page: Page): Promise<void> {
  await page.keyboard.press("F1");
  const box = page.locator(sel.quickInputBox);
  await box.waitFor({ state: "visible", timeout: 10_000 });
  await box.fill(">Welcome: Open Walkthrough");
  await page.locator(sel.quickInputRow).filter({ hasText: "Open Walkthrough" }).first().click();
  await page.locator(sel.quickInputRow).filter({ hasText: "Guard your coding agents" }).first().click();
  await page.locator(`${sel.walkthroughStep}[data-step-id$="#rules"]`).waitFor({ state: "visible", timeout: 15_000 });
}
