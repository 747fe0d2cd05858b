// Claude Code's wire format: a hook payload (any event) in, the exact JSON body that event
// honours out. A deny in the wrong shape is silently no deny: the shapes come from the event
// table (../events.ts), every one measured or documented (../shared/notes/claude-code-hooks.md).
import { eventRow } from "../events";
import { clipReason, type Answer } from "../render";
import { engineToolName, isObject, str, type AgentWire, type WireRequest } from "./types";

export type HookBody = Record<string, unknown>;

export const claude: AgentWire = {
  id: "claude",
  label: "Claude Code",
  read: readClaudeHook,
  render: (req, answer) => ({ body: renderClaudeAnswer(req.event, answer), exitCode: 0 }),
};

export function readClaudeHook(payload: unknown): WireRequest {
  const base: WireRequest = { agent: "claude", event: "PreToolUse", raw: payload };
  if (!isObject(payload)) return { ...base, malformed: "malformed hook request: the hook input is not a JSON object" };
  const event = str(payload.hook_event_name);
  const sessionId = str(payload.session_id);
  const cwd = str(payload.cwd);
  if (!event) return { ...base, cwd, sessionId, malformed: "malformed hook request: the hook input has no hook_event_name" };
  // PreSkillShellCommand may carry the command directly; everything else has tool_name + tool_input.
  const command = str(payload.command);
  const toolName = typeof payload.tool_name === "string" ? payload.tool_name : command !== undefined ? "Bash" : undefined;
  const input = payload.tool_input ?? (command !== undefined ? { command } : undefined);
  // Every request of every call comes through here: one object literal, no spreads.
  const req: WireRequest = { agent: "claude", event, raw: payload, cwd, sessionId };
  // No call (an empty tool name counts as none): only an event the rules judge needs one, and
  // the judge refuses it there as malformed.
  if (toolName) req.toolName = toolName;
  if (toolName && input !== undefined) req.call = { tool: engineToolName(toolName), input };
  return req;
}

export function renderClaudeAnswer(eventName: string, answer: Answer): HookBody {
  const row = eventRow(eventName);
  if (answer.kind === "neutral") {
    // No opinion on the call; a word for the model where PreToolUse takes one (additionalContext).
    return answer.context && row.shape === "permissionDecision" ? { hookSpecificOutput: { hookEventName: row.name, additionalContext: clipReason(answer.context) } } : {};
  }
  const reason = clipReason(answer.reason);
  switch (row.shape) {
    case "permissionDecision":
      return {
        hookSpecificOutput: { hookEventName: row.name, permissionDecision: answer.kind, permissionDecisionReason: reason, ...(answer.context && answer.kind !== "deny" && { additionalContext: clipReason(answer.context) }) },
      };
    case "permissionBehavior":
      // PermissionRequest has no "ask": no opinion lets Claude Code show its own prompt.
      if (answer.kind === "ask") return {};
      return {
        hookSpecificOutput: {
          hookEventName: row.name,
          decision: answer.kind === "allow" ? { behavior: "allow" } : { behavior: "deny", message: reason },
        },
      };
    case "decisionBlock":
      return answer.kind === "deny" ? { decision: "block", reason } : {};
    case "continueFalse":
      return answer.kind === "deny" ? { continue: false, stopReason: reason } : {};
    case "elicitationAction":
      return answer.kind === "deny" ? { hookSpecificOutput: { hookEventName: row.name, action: "decline" } } : {};
    case "none":
      return {};
  }
}
