// Helpers shared by the adapters of the agents whose hooks are "a command that reads JSON".
import { blockReason, unconfirmedReason } from "../reason";
import type { Answer } from "../render";
import type { AgentId, WireRequest } from "./types";

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A payload we cannot read: refused (never guessed), with the reason the model reads. */
export function malformedRequest(agent: AgentId, event: string, why: string, raw: unknown): WireRequest {
  return { agent, event, malformed: blockReason(`malformed ${agent} hook request: ${why}`), raw };
}

/** Reasons stay well inside every agent's cap on hook output. */
const MAX_REASON = 4000;
export function clip(s: string): string {
  return s.length <= MAX_REASON ? s : s.slice(0, MAX_REASON - 1) + "…";
}

/**
 * The reason of a refusal in an agent whose hook cannot put a question to its user in a way we
 * trust: an ask that reached the renderer unanswered is refused (failure never means permission).
 */
export function refusalReason(answer: Extract<Answer, { reason: string }>, label: string): string {
  return clip(answer.kind === "ask" ? unconfirmedReason(answer.reason, `${label} cannot ask here, so confirm it in Damage Control or change the rule`) : answer.reason);
}
