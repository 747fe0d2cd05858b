// The CLI's own vocabulary (damage-control check, the panel's "Try a command"): {tool, input, cwd}
// in Claude Code's or pi's tool names, a plain decision out.
import { engineToolName, isObject, str, type AgentWire, type WireRequest } from "./types";

export const cli: AgentWire = {
  id: "cli",
  label: "the command line",
  read(payload: unknown): WireRequest {
    const base: WireRequest = { agent: "cli", event: "PreToolUse", raw: payload };
    if (!isObject(payload) || typeof payload.tool !== "string") return { ...base, malformed: 'malformed tool call: expected {"tool": ..., "input": ...}' };
    return { ...base, cwd: str(payload.cwd), toolName: payload.tool, call: { tool: engineToolName(payload.tool), input: payload.input } };
  },
  render: (_req, answer) => ({
    body: { decision: answer.kind, ...(answer.kind !== "neutral" && { reason: answer.reason }) },
    exitCode: 0,
  }),
};
