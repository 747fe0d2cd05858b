// Driving VS Code's own agent from a UI test: wait for a condition, type a prompt into the chat
// view, press the visible buttons of VS Code's own confirmations (the user's click), run one command
// through the agent and read what the model was told.
import type { Page } from "playwright-core";
import type { ChatModelMock, ToolOutcome } from "./chat-model-mock";
import type { Fixture } from "./fixture-workspace";
import { openWorkbench, runCommand, type Workbench } from "./workbench";

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

/**
 * Sends one prompt that makes the mock model call run_in_terminal with `command`; resolves with
 * what the model was told, and whether VS Code's own confirmation came up (its Allow is pressed:
 * the user's click).
 */
export async function runInAgentChat(page: Page, mock: ChatModelMock, command: string): Promise<ToolOutcome & { confirmed: boolean }> {
  const seen = mock.outcomes.length;
  for (let attempt = 1; ; attempt++) {
    await focusChat(page);
    await page.keyboard.type(`Please run this in the terminal: DCRUN<<${command}>>`);
    await page.keyboard.press("Enter");
    // Startup race (note §5.6): a prompt sent before the chat setup finished can hang; resend once.
    try {
      await waitFor(`the model to be asked about ${command}`, () => mock.sawPrompt(command), 25_000);
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press("Escape");
      await runCommand(page, "Chat: New Chat").catch(() => undefined);
    }
  }
  let confirmed = false;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const o = mock.outcomes.slice(seen).find((x) => x.command === command);
    if (o) return { ...o, confirmed };
    if (Date.now() > deadline) throw new Error(`timed out waiting for the tool result of ${command}`);
    // VS Code's own "Run bash command?" confirmation in the chat view (not a modal dialog).
    if (await pressVisible(page, /^\s*Allow\s*$/)) confirmed = true;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * A workbench whose built-in agent talks to `mock`, with VS Code's own confirmations switched off
 * (so only the hook and the kernel are in the way) and a HOME of its own beside the workspace.
 */
export function openAgentWorkbench(fx: Fixture, mock: ChatModelMock, home: string, env: Record<string, string> = {}): Promise<Workbench> {
  return openWorkbench({
    workspaceFolder: fx.workspace,
    env: { ...fx.env, HOME: home, ...env },
    settings: { "chat.disableAIFeatures": false, "chat.allowAnonymousAccess": true, "chat.tools.global.autoApprove": true, "chat.useHooks": true },
    userFiles: { "chatLanguageModels.json": mock.languageModels() },
    timeoutMs: 120_000,
  });
}
