// Asking a human. The VS Code adapter shows a modal; pi asks in its own UI; where nobody can
// answer (headless `serve`, a command hook, pi without a UI) the ask is a refusal that says why.
import type { AgentId } from "../engine/agents/types";

export interface AskRequest {
  agent: AgentId;
  tool: string;
  /** The command, or the path, the call is about. */
  target: string;
  /** The workspace folder the call is in. */
  folder: string;
  /** The rule's reason, as the engine wrote it for the model. */
  reason: string;
  /** The rule as written (pattern or path), when there is one. */
  rule?: string;
  sessionId?: string;
  /** The bash command, when a bash pattern asks: then "Always allow in this folder" can write an exception for it. */
  command?: string;
  /** Whether approving is recoverable: "a snapshot is kept: Restore from the panel", or why not. */
  undo?: string;
}

export interface AskResult {
  approved: boolean;
  /** Why it was not approved (user denied, timed out, nobody could confirm…). */
  why: string;
  /** Nobody was there to ask (headless, no UI, the endpoint down): not a human's Deny. */
  nobody?: true;
  /** The user chose "Always allow in this folder": write the narrowest exception to the user layer. */
  always?: boolean;
}

export interface Asker {
  ask(request: AskRequest): Promise<AskResult>;
}

/** The asker where nobody can answer: every ask is refused, saying `why`. */
export function nobodyAsker(why: string): Asker {
  return { ask: async () => ({ approved: false, why, nobody: true }) };
}

export const headlessAsker: Asker = nobodyAsker("nobody could confirm it (Damage Control runs without an interactive approval surface)");

/** A decision the agent was refused: by a rule, the posture, a human's Deny (or no answer), or an ask nobody could answer. */
export function isRefusal(decision: string): boolean {
  return decision === "block" || decision === "denied-by-user" || decision === "unconfirmed";
}
