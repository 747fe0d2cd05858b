// Agent wire formats: one pure adapter per agent (coordination brief interface; h1 owns this file,
// this is the stub h3 codes against until h1-reshape lands).
import type { Answer } from "../render";
import type { ToolCall } from "../toolcall";

export type AgentId = "claude" | "pi" | "vscode" | "copilot-cli" | "codex" | "gemini" | "cli";

export interface WireRequest {
  agent: AgentId;
  /** Claude-style event name: "PreToolUse", "PermissionRequest", … */
  event: string;
  /** In the ENGINE's vocabulary ({tool:"bash", input:{command}}, {tool:"write", input:{file_path}}, …). */
  call?: ToolCall;
  cwd?: string;
  sessionId?: string;
  /** Set when the payload cannot be read: refused. */
  malformed?: string;
  /** The original payload. */
  raw?: unknown;
}

export interface WireAnswer {
  body: unknown;
  exitCode: 0 | 2;
  stderr?: string;
}

export interface AgentWire {
  id: AgentId;
  label: string;
  read(payload: unknown): WireRequest;
  render(req: WireRequest, answer: Answer): WireAnswer;
}
