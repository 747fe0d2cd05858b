// Codex CLI, Gemini CLI and Copilot CLI through the one guard (issue 18). Until h1's
// guard.handle(agentId, payload) lands this is that path for h5's agents: the adapter reads the
// agent's payload into the engine's vocabulary, the guard judges it as a PreToolUse call (same
// rules, same worker, same asker and ledger — recorded under the agent's own id), and the adapter
// writes the answer in the shape that agent honours. Any failure is that agent's deny.
import { MORE_AGENTS } from "../engine/agents";
import type { AgentId, AgentWire, WireAnswer, WireRequest } from "../engine/agents/types";
import { blockReason } from "../engine/reason";
import type { Answer } from "../engine/render";
import type { Guard } from "./guard";

export type MoreAgentId = "codex" | "gemini" | "copilot-cli";
export const MORE_AGENT_IDS: readonly MoreAgentId[] = ["codex", "gemini", "copilot-cli"];

export function isMoreAgent(id: string): id is MoreAgentId {
  return (MORE_AGENT_IDS as readonly string[]).includes(id);
}

export function wireOf(agent: MoreAgentId): AgentWire {
  return MORE_AGENTS[agent]!;
}

/** The Answer a Claude PreToolUse body means (the exact inverse of renderClaudeAnswer for it). */
export function answerOfClaudeBody(body: unknown): Answer {
  const out = (body as { hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown } } | null)?.hookSpecificOutput;
  if (!out) {
    if (typeof body === "object" && body !== null && Object.keys(body).length === 0) return { kind: "neutral" };
    return { kind: "deny", reason: blockReason("the guard gave an answer this agent's adapter cannot read") };
  }
  const reason = typeof out.permissionDecisionReason === "string" ? out.permissionDecisionReason : "";
  if (out.permissionDecision === "allow") return { kind: "allow", reason };
  if (out.permissionDecision === "ask") return { kind: "ask", reason };
  if (out.permissionDecision === "deny") return { kind: "deny", reason: reason || blockReason("refused") };
  return { kind: "deny", reason: blockReason("the guard gave an answer this agent's adapter cannot read") };
}

/** The refusal this agent honours, for a failure of ours. */
export function agentRefusal(agent: MoreAgentId, why: string): WireAnswer {
  const wire = wireOf(agent);
  const req: WireRequest = { agent: agent as AgentId, event: "PreToolUse" };
  return wire.render(req, { kind: "deny", reason: blockReason(why) });
}

/** One hook call of `agent`, judged by `guard`: the agent-shaped answer. Never throws. */
export async function handleAgentHook(guard: Guard, agent: MoreAgentId, payload: unknown): Promise<WireAnswer> {
  const wire = wireOf(agent);
  let req: WireRequest;
  try {
    req = wire.read(payload);
  } catch (e) {
    return agentRefusal(agent, `the ${wire.label} hook input could not be read (${(e as Error).message})`);
  }
  try {
    if (req.malformed) return wire.render(req, { kind: "deny", reason: req.malformed });
    // An event we do not guard (not wired by install): no opinion.
    if (!req.call) return wire.render(req, { kind: "neutral" });
    const body = await guard.claudeHook(
      { hook_event_name: "PreToolUse", tool_name: req.call.tool, tool_input: req.call.input, ...(req.cwd && { cwd: req.cwd }), ...(req.sessionId && { session_id: req.sessionId }) },
      agent,
    );
    return wire.render(req, answerOfClaudeBody(body));
  } catch (e) {
    return agentRefusal(agent, `Damage Control failed while deciding (${(e as Error).message})`);
  }
}
