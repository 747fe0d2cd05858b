// Drives a real VS Code workbench (code-server, see ./code-server.ts) with playwright-core and
// Debian's Chromium. openWorkbench() gives a page with the extension under test loaded; the
// helpers below act on that page. All DOM selectors live in ./selectors.ts.
//
//   const wb = await openWorkbench();                 // server + browser + page, extension active
//   await runCommand(wb.page, "Damage Control: ...");  // via the command palette
//   assert.match(await statusBarText(wb.page, "damageControl.status"), /Damage Control/);
//   await wb.close();
import * as fs from "node:fs";
import * as path from "node:path";
import * as util from "node:util";
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from "playwright-core";
import { startCodeServer, type CodeServer, type CodeServerOptions } from "./code-server";
import { extensionId, resultsDir } from "./paths";
import { childGroupLeaders, killGroup, trackGroup } from "./processes";
import { sel } from "./selectors";

export { sel } from "./selectors";

/** Our status bar item's id (src/extension.ts). */
export const STATUS_ITEM_ID = "damageControl.status";

export const chromiumPath = (): string => process.env.DC_CHROMIUM || "/usr/bin/chromium";

export interface OpenWorkbenchOptions extends CodeServerOptions {
  /** Absolute path of a bundled module exporting run(): Promise<void>. VS Code runs it in the
   *  extension host once the extension is loaded and calls window.codeAutomationExit(0|1) after. */
  extensionTestsPath?: string;
  /** Status bar item id (or text) to wait for before resolving. Default STATUS_ITEM_ID; null: don't wait. */
  waitForStatusItem?: string | null;
  /** Called for each console line the workbench forwards (window.codeAutomationLog): the workbench's
   *  own logs and, with extensionTestsPath, the extension host's (console.log in the extension/tests). */
  onHostLog?: (type: string, line: string) => void;
  /** Budget for server start + page load + status item. Default 90 s. */
  timeoutMs?: number;
}

export interface Workbench {
  server: CodeServer;
  browser: Browser;
  page: Page;
  /** Resolves with the code the host passed to codeAutomationExit (only with extensionTestsPath). */
  exitCode: Promise<number>;
  /** Forwarded console lines seen so far (see onHostLog), "type: text". */
  hostLog: string[];
  /** Uncaught errors of the workbench page. */
  pageErrors: string[];
  /** Closes the browser, then stops code-server (whole process group). Never throws. */
  close(): Promise<void>;
}

/** Headless Chromium as measured on these machines; tracked so it cannot outlive the run. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!fs.existsSync(executablePath)) {
    throw new Error(`${executablePath} not found: run 'bash scripts/install-system-deps.sh' as root (apt chromium), or set DC_CHROMIUM`);
  }
  const before = new Set(childGroupLeaders());
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--disable-crash-reporter", "--disable-breakpad"],
  });
  const groups = childGroupLeaders().filter((g) => !before.has(g));
  for (const g of groups) trackGroup(g, "chromium");
  browserGroups.set(browser, groups);
  return browser;
}

const browserGroups = new WeakMap<Browser, number[]>();

/** Closes a browser from launchChromium() and kills whatever is left of its process group. */
export async function closeChromium(browser: Browser): Promise<void> {
  await browser.close().catch(() => undefined);
  for (const g of browserGroups.get(browser) ?? []) await killGroup(g, 2000);
}

/** Starts code-server, opens the workbench in Chromium, waits until it (and our status item) shows. */
export async function openWorkbench(opts: OpenWorkbenchOptions = {}): Promise<Workbench> {
  const timeout = opts.timeoutMs ?? 90_000;
  const started = Date.now();
  const left = () => Math.max(1000, timeout - (Date.now() - started));
  const server = await startCodeServer(opts);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const hostLog: string[] = [];
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    let resolveExit!: (code: number) => void;
    const exitCode = new Promise<number>((r) => (resolveExit = r));
    await page.exposeFunction("codeAutomationExit", (code: number) => resolveExit(Number(code)));
    await page.exposeFunction("codeAutomationLog", (type: string, args: unknown) => {
      const line = Array.isArray(args) ? util.format(...args) : String(args);
      hostLog.push(`${type}: ${line}`);
      opts.onHostLog?.(type, line);
    });
    const b = browser;
    const wb: Workbench = {
      server,
      browser: b,
      page,
      exitCode,
      hostLog,
      pageErrors,
      async close() {
        await closeChromium(b);
        await server.stop().catch(() => undefined);
      },
    };
    try {
      await page.goto(server.workbenchUrl({ extensionTestsPath: opts.extensionTestsPath }), { timeout: left() });
      await page.locator(sel.workbench).waitFor({ timeout: left() });
      const item = opts.waitForStatusItem === undefined ? STATUS_ITEM_ID : opts.waitForStatusItem;
      if (item) await statusBarItem(page, item).waitFor({ state: "visible", timeout: left() });
    } catch (e) {
      await screenshot(page, "openWorkbench-failed").catch(() => undefined);
      throw new Error(`${(e as Error).message}\n--- code-server log ---\n${server.logTail()}\n--- host log ---\n${hostLog.slice(-20).join("\n")}`);
    }
    return wb;
  } catch (e) {
    if (browser) await closeChromium(browser);
    await server.stop();
    throw e;
  }
}

/** A status bar entry, by our item id (e.g. "damageControl.status") or by visible text. */
export function statusBarItem(page: Page, idOrText: string): Locator {
  if (/^[\w-]+(\.[\w-]+)+$/.test(idOrText)) {
    // Extension items get the DOM id "<publisher>.<name>.<item id>".
    const full = idOrText.startsWith(`${extensionId()}.`) ? idOrText : `${extensionId()}.${idOrText}`;
    return page.locator(`${sel.statusBarItem}[id="${full}"]`);
  }
  return page.locator(sel.statusBarItem, { hasText: idOrText }).first();
}

/** The visible text of a status bar entry (codicons like $(shield) render as icons, so not included). */
export async function statusBarText(page: Page, idOrText: string, timeout = 10_000): Promise<string> {
  const item = statusBarItem(page, idOrText);
  await item.waitFor({ state: "visible", timeout });
  return (await item.innerText()).replace(/\s+/g, " ").trim();
}

/** A regexp matching exactly `text` (surrounding whitespace allowed), for hasText filters. */
function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);
}

/** Closes the quick input (command palette, Quick Open) if it is open, so the next one starts clean. */
export async function closeQuickInput(page: Page, timeout = 10_000): Promise<void> {
  const widget = page.locator(sel.quickInput);
  if (await widget.isVisible()) await page.keyboard.press("Escape");
  await widget.waitFor({ state: "hidden", timeout });
}

/** Opens the quick input with `key`, types `text`, and clicks the row whose label is exactly `label`. */
async function pickFromQuickInput(page: Page, key: string, text: string, label: string, timeout: number): Promise<void> {
  await closeQuickInput(page, timeout);
  await page.keyboard.press(key);
  const box = page.locator(sel.quickInputBox);
  await box.waitFor({ state: "visible", timeout });
  await box.fill(text);
  // Not the first row: until the filter catches up it may be a stale one (e.g. a recent file).
  const row = page.locator(sel.quickInputRow).filter({ has: page.locator(sel.quickInputLabel, { hasText: exactly(label) }) }).first();
  await row.waitFor({ state: "visible", timeout });
  await row.click();
  await page.locator(sel.quickInput).waitFor({ state: "hidden", timeout });
}

/** Runs a command by its palette title ("Category: Title" as shown), via F1 and an exact-label click. */
export async function runCommand(page: Page, title: string, timeout = 10_000): Promise<void> {
  await pickFromQuickInput(page, "F1", `>${title}`, title, timeout);
}

/** Opens a workspace file in an editor via Quick Open (Ctrl+P), by its path relative to the folder. */
export async function openFile(page: Page, relativePath: string, timeout = 10_000): Promise<void> {
  const name = path.basename(relativePath);
  await pickFromQuickInput(page, "Control+P", relativePath, name, timeout);
  await page.locator(`${sel.editorTab}.active`, { hasText: name }).waitFor({ state: "visible", timeout });
}

/** The content frame of a webview (view or panel). `index` picks among several open webviews. */
export function webviewFrame(page: Page, index = 0): FrameLocator {
  return page.locator(sel.webviewOuter).nth(index).contentFrame().frameLocator(sel.webviewInner);
}

export interface ModalInfo {
  message: string;
  detail: string;
  /** In on-screen order; VS Code adds "Cancel" to modal warnings, e.g. items "Deny", "Allow" show as ["Allow", "Cancel", "Deny"] (the first item is the primary button, last on screen). */
  buttons: string[];
}

/** Waits for a modal dialog (.monaco-dialog-box) and reads it. */
export async function readModal(page: Page, timeout = 10_000): Promise<ModalInfo> {
  await page.locator(sel.dialog).waitFor({ state: "visible", timeout });
  const text = async (s: string) => ((await page.locator(s).count()) ? (await page.locator(s).first().innerText()).trim() : "");
  const buttons = (await page.locator(sel.dialogButton).allInnerTexts()).map((b) => b.trim());
  return { message: await text(sel.dialogMessage), detail: await text(sel.dialogDetail), buttons };
}

/** Clicks the modal's button with exactly this label and waits for the dialog to go. */
export async function clickModalButton(page: Page, label: string, timeout = 10_000): Promise<void> {
  await page.locator(sel.dialogButton).filter({ hasText: exactly(label) }).first().click({ timeout });
  await page.locator(sel.dialog).waitFor({ state: "hidden", timeout });
}

/** Opens the notification center and returns its messages, newest first. (Toasts never show in
 *  this harness: VS Code suppresses them under the smoke-test driver that ?payload= needs.) */
export async function readNotifications(page: Page, timeout = 10_000): Promise<string[]> {
  if (!(await page.locator(sel.notificationsCenter).isVisible())) await runCommand(page, "Notifications: Show Notifications", timeout);
  await page.locator(sel.notificationsCenter).waitFor({ state: "visible", timeout });
  return (await page.locator(`${sel.notificationsCenterRow} ${sel.notificationsCenterMessage}`).allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** Expands the notification-center row whose message contains `text` (for a readable screenshot). */
export async function expandNotification(page: Page, text: string, timeout = 10_000): Promise<void> {
  const row = page.locator(sel.notificationsCenterRow, { hasText: text }).first();
  const expand = row.locator(sel.notificationExpand);
  if (await expand.count()) await expand.first().click({ timeout });
}

/** Hides the notification center if it is open. */
export async function hideNotifications(page: Page, timeout = 10_000): Promise<void> {
  if (!(await page.locator(sel.notificationsCenter).isVisible())) return;
  await page.locator(sel.notificationsCenter).click({ position: { x: 10, y: 10 } }); // focus it: Escape hides it
  await page.keyboard.press("Escape");
  await page.locator(sel.notificationsCenter).waitFor({ state: "hidden", timeout });
}

/** Opens the Problems panel (Ctrl+Shift+M) and returns its rows' texts (files and markers). */
export async function openProblems(page: Page, timeout = 10_000): Promise<string[]> {
  if (!(await page.locator(sel.problemsPanel).isVisible())) await page.keyboard.press("Control+Shift+M");
  await page.locator(sel.problemsPanel).waitFor({ state: "visible", timeout });
  return (await page.locator(sel.problemsRow).allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** Saves a full-page PNG as test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(resultsDir("screenshots"), `${name.replace(/[^\w.-]+/g, "_").slice(0, 120)}.png`);
  await page.screenshot({ path: file, fullPage: true, timeout: 10_000 });
  return file;
}

/** For a mocha afterEach/teardown hook: screenshots the page when the current test failed. */
export async function screenshotOnFailure(ctx: Mocha.Context, page: Page | undefined): Promise<void> {
  const t = ctx.currentTest;
  if (!page || !t || t.state !== "failed") return;
  const file = await screenshot(page, `FAILED-${t.fullTitle()}`).catch(() => null);
  if (file) console.error(`    screenshot: ${path.relative(process.cwd(), file)}`);
}
