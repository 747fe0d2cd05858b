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
export type Answer = ({ kind: "neutral" } | { kind: "allow" | "deny" | "ask"; reason: string }) & {
  context?: string;
  /**
   * Only on neutral or allow (an answer that already lets the call run): the shell command to run
   * instead, the same command inside our sandbox runner (core/sandbox/). An agent that can rewrite
   * its input carries it; it never turns anything into allow that was not one already.
   */
  run?: string;
};

/** Agents cap the strings they show (Claude Code: 10,000 characters); stay well inside. */
export const MAX_REASON = 4000;

export function clipReason(s: string): string {
  return s.length <= MAX_REASON ? s : s.slice(0, MAX_REASON - 1) + "…";
}
