// The one shape every agent adapter has: read the agent's payload into a WireRequest in the
// engine's vocabulary, and render the guard's Answer back into what that agent honours. Both pure.
import type { Answer } from "../render";
import type { ToolCall } from "../toolcall";

export type AgentId = "claude" | "pi" | "vscode" | "copilot-cli" | "codex" | "gemini" | "qwen" | "opencode" | "cline" | "cli";

export const AGENT_IDS: readonly AgentId[] = ["claude", "pi", "vscode", "copilot-cli", "codex", "gemini", "qwen", "opencode", "cline", "cli"];

export function isAgentId(v: unknown): v is AgentId {
  return typeof v === "string" && (AGENT_IDS as readonly string[]).includes(v);
}

export interface WireRequest {
  agent: AgentId;
  /** Claude-style event name ("PreToolUse", "PermissionRequest", …): the event table's row. */
  event: string;
  /** The call in the engine's vocabulary: {tool: "bash"|"read"|"write"|"edit"|"grep"|"glob"|"ls"|…, input}. */
  call?: ToolCall;
  /**
   * One agent call that stands for several (Cline's run_commands with several commands, read_files
   * with several files): each is judged like a call of its own and the strictest answer wins.
   * `call` is the first of them. Absent for a single call.
   */
  calls?: ToolCall[];
  /** The tool as the agent named it ("Bash", "WebFetch"), for people and the audit trail. */
  toolName?: string;
  cwd?: string;
  sessionId?: string;
  /** Set when the payload cannot be read: the whole reason, e.g. "malformed hook request: …". Refused. */
  malformed?: string;
  /**
   * A post-tool event (TOOL_RESULT): the shell command as the agent ran it (our runner's wrapper
   * when the call was rewritten) and what it printed, as the agent gives it to the model.
   */
  result?: { command: string; output: string };
  /** The original payload (ConfigChange reads it in the core). Never sent to the decision worker. */
  raw?: unknown;
}

export interface WireAnswer {
  body: unknown;
  exitCode: 0 | 2;
  stderr?: string;
}

export interface AgentWire {
  id: AgentId;
  /** "Claude Code", "VS Code's agent", … */
  label: string;
  read(payload: unknown): WireRequest;
  render(req: WireRequest, answer: Answer): WireAnswer;
}

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The tools the engine has rules for, by lower-cased name: an agent's spelling of them is mapped. */
const ENGINE_TOOLS = new Set(["bash", "read", "notebookread", "write", "edit", "multiedit", "notebookedit", "grep", "glob", "find", "ls"]);

/** An agent's tool name in the engine's vocabulary: known tools lower-cased, any other kept as it is. */
export function engineToolName(name: string): string {
  const lower = name.toLowerCase();
  return ENGINE_TOOLS.has(lower) ? lower : name;
}

