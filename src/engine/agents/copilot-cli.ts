// STUB (h3): GitHub Copilot CLI's own hook shape. Owned by h5-agents, who replaces this file.
// Copilot CLI's preToolUse stdin: {"timestamp":…, "cwd":"…", "toolName":"bash", "toolArgs":"{\"command\":…}"}
// (toolArgs is a JSON string); it honours {"permissionDecision":"deny","permissionDecisionReason":R}.
import type { Answer } from "../render";
import { engineToolName, isObject, type AgentWire, type WireAnswer, type WireRequest } from "./types";

export const copilotCliWire: AgentWire = {
  id: "copilot-cli",
  label: "Copilot CLI",
  read(payload: unknown): WireRequest {
    if (!isObject(payload)) return { agent: "copilot-cli", event: "PreToolUse", malformed: "malformed hook request: the hook input is not a JSON object", raw: payload };
    const cwd = typeof payload.cwd === "string" ? payload.cwd : undefined;
    const base = { agent: "copilot-cli" as const, event: "PreToolUse", ...(cwd && { cwd }), raw: payload };
    if (typeof payload.toolName !== "string") return { ...base, malformed: "malformed hook request: the preToolUse input has no toolName" };
    let args: unknown = payload.toolArgs;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        return { ...base, malformed: "malformed hook request: toolArgs is not valid JSON" };
      }
    }
    const a = isObject(args) ? args : {};
    const name = payload.toolName;
    if (name === "bash" || name === "shell") return { ...base, toolName: name, call: { tool: "bash", input: { command: a.command } } };
    return { ...base, toolName: name, call: { tool: engineToolName(name), input: args } };
  },
  render(_req: WireRequest, answer: Answer): WireAnswer {
    if (answer.kind === "neutral") return { body: {}, exitCode: 0 };
    return { body: { permissionDecision: answer.kind, permissionDecisionReason: answer.reason }, exitCode: 0 };
  },
};
