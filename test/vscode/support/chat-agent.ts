// Driving VS Code's own agent from a UI test: wait for a condition, type a prompt into the chat
// view, press the visible buttons of VS Code's own confirmations (the user's click).
import type { Page } from "playwright-core";

const CHAT_INPUT = ".interactive-input-part .monaco-editor";

export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Focuses the chat input (opening the chat view if it is hidden). */
export async function focusChat(page: Page): Promise<void> {
  const input = page.locator(CHAT_INPUT).first();
  if (!(await input.isVisible())) await page.keyboard.press("Control+Alt+KeyI");
  await input.waitFor({ state: "visible", timeout: 30_000 });
  await input.click();
}

/** Clicks every visible button labelled `label` (VS Code's own "Allow" in the chat view); true when one was. */
export async function pressVisible(page: Page, label: RegExp): Promise<boolean> {
  const buttons = page.locator(".monaco-button").filter({ hasText: label });
  const n = await buttons.count().catch(() => 0);
  let pressed = false;
  for (let i = 0; i < n; i++) {
    const b = buttons.nth(i);
    if (!(await b.isVisible().catch(() => false))) continue;
    pressed = true;
    await b.click({ timeout: 5000 }).catch(() => undefined);
  }
  return pressed;
}
