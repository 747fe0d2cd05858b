// `damage-control hook copilot`: one command, two callers. The hook files under ~/.copilot/hooks
// and .github/hooks are read both by VS Code's agent (PascalCase "PreToolUse" entries, Claude-like
// stdin: tool_name, hook_event_name) and by GitHub Copilot CLI (lower-case "preToolUse" entries,
// its own stdin: toolName, toolArgs). This picks the wire by the payload's shape. Pure.
import type { AgentWire } from "./types";
import { copilotCliWire } from "./copilot-cli";
import { vscodeWire } from "./vscode";

type Json = Record<string, unknown>;

/** Which caller wrote this stdin: VS Code (snake_case hook_event_name/tool_name) or Copilot CLI (toolName/toolArgs). */
export function copilotCaller(payload: unknown): AgentWire {
  if (typeof payload === "object" && payload !== null && !Array.isArray(payload)) {
    const p = payload as Json;
    if (typeof p.hook_event_name === "string" || typeof p.tool_name === "string") return vscodeWire;
    if (typeof p.toolName === "string" || "toolArgs" in p) return copilotCliWire;
  }
  // Unreadable input: VS Code's wire refuses it in the shape VS Code honours (exit 2 also denies in Copilot CLI).
  return vscodeWire;
}
