// Verdict → the exact JSON body one Claude Code hook event honours. Reads the event table.
import { eventRow } from "./events";

/**
 * What we answer, before it is shaped for an event.
 *   neutral  no opinion: Claude Code's own permission rules and prompt still apply
 *   allow    only ever a human's Allow in our modal: it skips Claude Code's own prompt
 *   deny     refused, with the reason the model reads
 *   ask      let Claude Code ask its own user (only where we cannot ask ourselves)
 */
export type Answer = { kind: "neutral" } | { kind: "allow" | "deny" | "ask"; reason: string };

export type HookBody = Record<string, unknown>;

/** Claude Code caps hook output strings at 10,000 characters; stay well inside. */
const MAX_REASON = 4000;

export function renderClaudeAnswer(eventName: string, answer: Answer): HookBody {
  if (answer.kind === "neutral") return {};
  const row = eventRow(eventName);
  const reason = clip(answer.reason);
  switch (row.shape) {
    case "permissionDecision":
      return {
        hookSpecificOutput: { hookEventName: row.name, permissionDecision: answer.kind, permissionDecisionReason: reason },
      };
    case "permissionBehavior":
      // PermissionRequest has no "ask": no opinion lets Claude Code show its own prompt.
      if (answer.kind === "ask") return {};
      return {
        hookSpecificOutput: {
          hookEventName: row.name,
          decision: answer.kind === "allow" ? { behavior: "allow" } : { behavior: "deny", message: reason },
        },
      };
    case "decisionBlock":
      return answer.kind === "deny" ? { decision: "block", reason } : {};
    case "continueFalse":
      return answer.kind === "deny" ? { continue: false, stopReason: reason } : {};
    case "elicitationAction":
      return answer.kind === "deny" ? { hookSpecificOutput: { hookEventName: row.name, action: "decline" } } : {};
    case "none":
      return {};
  }
}

function clip(s: string): string {
  return s.length <= MAX_REASON ? s : s.slice(0, MAX_REASON - 1) + "…";
}
