// pi's wire format (the Damage Control pi extension): {toolName, input, cwd, sessionId} in,
// {block, reason} out. pi's tool names (bash, read, write, edit, grep, find, ls) are already
// the engine's; every call is a PreToolUse, except the extension's tool_result post
// ({event: "tool_result", toolName, input: {command}, output, cwd, sessionId}: a bash call's
// result, read for the sandbox's kernel refusals and answered {block: false}).
import { TOOL_RESULT } from "../events";
import { clipReason } from "../render";
import { engineToolName, isObject, str, type AgentWire, type WireRequest } from "./types";

export interface PiAnswer {
  block: boolean;
  reason?: string;
  /** A bash call to run in our sandbox: the command the extension puts into the call's input
   * (pi 1.6.0 runs a tool_call's input as the handler left it; measured). */
  command?: string;
}

export const pi: AgentWire = {
  id: "pi",
  label: "pi",
  read(payload: unknown): WireRequest {
    const base: WireRequest = { agent: "pi", event: "PreToolUse", raw: payload };
    const b = isObject(payload) ? payload : {};
    const cwd = str(b.cwd);
    const sessionId = str(b.sessionId);
    const toolName = str(b.toolName);
    if (b.event === "tool_result") {
      const command = isObject(b.input) ? str(b.input.command) : undefined;
      const output = str(b.output);
      return { ...base, event: TOOL_RESULT, cwd, sessionId, ...(toolName === "bash" && command !== undefined && output !== undefined && { result: { command, output } }) };
    }
    if (!toolName) return { ...base, cwd, sessionId, malformed: "malformed tool-call request: toolName is missing" };
    return { ...base, cwd, sessionId, toolName, call: { tool: engineToolName(toolName), input: b.input } };
  },
  render(req, answer) {
    // After the call ran there is nothing to refuse or rewrite.
    if (req.event === TOOL_RESULT) return { body: { block: false } satisfies PiAnswer, exitCode: 0 };
    const body: PiAnswer = answer.kind === "deny" ? { block: true, reason: clipReason(answer.reason) } : { block: false, ...(answer.run !== undefined && { command: answer.run }) };
    return { body, exitCode: 0 };
  },
};
