// Helpers shared by the command-hook agents' adapters (Codex, Gemini, Copilot CLI, Qwen Code, OpenCode, Cline).
import { posix } from "node:path";
import { unconfirmedReason } from "../reason";
import { clipReason, type Answer } from "../render";
import type { ToolCall } from "../toolcall";
import { isObject, type AgentId, type Json, type WireRequest } from "./types";

/** One of the agent's tools → the engine's call; a string is why its input cannot be read. */
export type ToolMapper = (input: Json) => ToolCall | string;

export interface MappedTools {
  tools: Record<string, ToolMapper>;
  /** "malformed qwen hook request": what a reason about an unreadable call starts with. */
  request: string;
  /** Why a call without a tool name or input object cannot be read, in the agent's own words. */
  missing: string;
  /** The shell tool, and the input key naming the folder it runs in (judged there). */
  shell: { tool: string; dirKey: string };
}

/**
 * The agent's tool call → the request the guard judges: mapped onto the engine's vocabulary,
 * passed on as it is when the map has no entry (MCP, web tools: the rules and the MCP analysis
 * judge it by its name and arguments), and a shell command judged in the folder it runs in.
 */
export function mappedRequest(base: WireRequest, cwd: string | undefined, tool: string | undefined, input: unknown, m: MappedTools): WireRequest {
  if (tool) base.toolName = tool;
  if (!tool || !isObject(input)) return { ...base, cwd, malformed: `${m.request}: ${m.missing}` };
  const map = m.tools[tool];
  if (!map) return { ...base, cwd, call: { tool, input } };
  const call = map(input);
  if (typeof call === "string") return { ...base, cwd, malformed: `${m.request}: ${call}` };
  const dir = input[m.shell.dirKey];
  if (tool === m.shell.tool && typeof dir === "string" && dir !== "" && cwd?.startsWith("/")) cwd = posix.resolve(cwd, dir);
  return { ...base, cwd, call };
}

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
