// What the guard answers an agent, before an agent adapter (engine/agents/) writes it in that
// agent's wire shape.

/**
 *   neutral  no opinion: the agent's own permission rules and prompt still apply
 *   allow    only ever a human's Allow in our modal: it skips the agent's own prompt
 *   deny     refused, with the reason the model reads
 *   ask      let the agent ask its own user (only where we cannot ask ourselves)
 */
/**
 * `context`: what the agent is told beside an answer that lets the call run (a snapshot was kept
 * and the user can restore it), where the agent takes additional context.
 */
export type Answer = { kind: "neutral"; context?: string } | { kind: "allow" | "deny" | "ask"; reason: string; context?: string };

/** Agents cap the strings they show (Claude Code: 10,000 characters); stay well inside. */
export const MAX_REASON = 4000;

export function clipReason(s: string): string {
  return s.length <= MAX_REASON ? s : s.slice(0, MAX_REASON - 1) + "…";
}
