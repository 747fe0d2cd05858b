// A shell call that asks to leave the sandbox (Claude Code's Bash `dangerouslyDisableSandbox:
// true`) is refused whatever its command: the kernel's protection is the point, and the text of
// the command says nothing about what the program it starts does. Pure.
import { blockReason } from "../reason";
import type { Verdict } from "../types";

export function sandboxEscapeVerdict(input: unknown): Verdict | undefined {
  if (typeof input !== "object" || input === null || (input as Record<string, unknown>).dangerouslyDisableSandbox !== true) return undefined;
  return {
    action: "block",
    reason: blockReason("this command asks to run outside the sandbox (dangerouslyDisableSandbox); commands run inside it, where the rules are enforced by the kernel (run it without that flag, or ask the user to run it)"),
  };
}
