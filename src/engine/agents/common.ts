// Helpers shared by the Codex CLI, Gemini CLI and Copilot CLI adapters.
import { unconfirmedReason } from "../reason";
import { clipReason, type Answer } from "../render";
import type { AgentId, WireRequest } from "./types";

/** A payload we cannot read: refused (never guessed); the core turns `malformed` into the reason. */
export function malformedRequest(agent: AgentId, event: string, why: string, raw: unknown): WireRequest {
  return { agent, event, malformed: `malformed ${agent} hook request: ${why}`, raw };
}

/**
 * The reason of a refusal in an agent whose hook cannot put a question to its user in a way we
 * trust: an ask that reached the renderer unanswered is refused (failure never means permission).
 */
export function refusalReason(answer: Extract<Answer, { reason: string }>, label: string): string {
  return clipReason(answer.kind === "ask" ? unconfirmedReason(answer.reason, `${label} cannot ask here, so confirm it in Damage Control or change the rule`) : answer.reason);
}
