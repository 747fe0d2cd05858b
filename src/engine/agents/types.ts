// STUB of h1's src/engine/agents/types.ts (the interface in /work/coord/README.md, verbatim):
// h5's adapters code against it until h1-reshape lands; on merge, h1's file wins.
import type { Answer } from "../render";
import type { ToolCall } from "../toolcall";

export type AgentId = "claude" | "pi" | "vscode" | "copilot-cli" | "codex" | "gemini" | "cli";

export interface WireRequest {
  agent: AgentId;
  /** Claude-style event name: "PreToolUse", "PermissionRequest", … */
  event: string;
  /** In the ENGINE's vocabulary ({tool:"bash"|"read"|"write"|"edit"|…, input}); the adapter maps. */
  call?: ToolCall;
  cwd?: string;
  sessionId?: string;
  /** Set when the payload cannot be read → refused. */
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
  /** "Claude Code", "Codex CLI", … : what the ledger, the panel and the status bar show. */
  label: string;
  read(payload: unknown): WireRequest;
  render(req: WireRequest, answer: Answer): WireAnswer;
}
