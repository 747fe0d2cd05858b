// Qwen Code (`@qwen-code/qwen-code`, measured 0.24.4): a user-level PreToolUse command hook in
// ~/.qwen/settings.json. stdin is Claude-shaped: {session_id, transcript_path, cwd,
// hook_event_name:"PreToolUse", permission_mode, prompt_id, tool_name, tool_input, tool_use_id}
// with Qwen's own tool names (run_shell_command, write_file, edit, read_file, …;
// ../shared/notes/more-agents.md).
//
// What Qwen honours (measured): hookSpecificOutput.permissionDecision "deny" (+reason) on exit 0,
// and exit 2 + stderr (the model reads `Tool "…" was not run: <reason>`). Exit 1, garbage and
// timeouts RUN the call, so the hook command is the launcher, which ends no other way than with
// an answer or exit 2. We print a deny, or `{}` for no opinion (Qwen's own approval applies; a
// human's Allow is `{}` too, so no answer of ours ever widens what Qwen would allow).
import type { Answer } from "../render";
import { malformedRequest, mappedRequest, refusalReason, type MappedTools, type ToolMapper } from "./common";
import { isObject as isObj, str, type AgentWire, type Json as Obj, type WireAnswer, type WireRequest } from "./types";


const needPath = (tool: string, engine: string) => (i: Obj) => (typeof i.file_path === "string" ? { tool: engine, input: { file_path: i.file_path } } : `a ${tool} call needs a string \`file_path\``);
const searchIn = (i: Obj) => str(i.path) ?? ".";

/** Qwen tool → the engine's tool and input; a string is why the input cannot be read. */
const TOOLS: Record<string, ToolMapper> = {
  run_shell_command: (i) => (typeof i.command === "string" ? { tool: "bash", input: { command: i.command } } : "a run_shell_command call needs a string `command`"),
  write_file: needPath("write_file", "write"),
  edit: needPath("edit", "edit"),
  read_file: needPath("read_file", "read"),
  notebook_edit: (i) => (typeof i.notebook_path === "string" ? { tool: "notebookedit", input: { notebook_path: i.notebook_path } } : "a notebook_edit call needs a string `notebook_path`"),
  list_directory: (i) => ({ tool: "ls", input: { path: searchIn(i) } }),
  glob: (i) => ({ tool: "glob", input: { path: searchIn(i), ...(typeof i.pattern === "string" && { pattern: i.pattern }) } }),
  grep_search: (i) => ({ tool: "grep", input: { path: searchIn(i), ...(typeof i.glob === "string" && { glob: i.glob }) } }),
};

const QWEN_TOOLS: MappedTools = { tools: TOOLS, request: "malformed qwen hook request", missing: "no tool_name or tool_input object", shell: { tool: "run_shell_command", dirKey: "directory" } };

export const qwenWire: AgentWire = {
  id: "qwen",
  label: "Qwen Code",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("qwen", "PreToolUse", "the hook input is not a JSON object", payload);
    const event = str(payload.hook_event_name);
    if (!event) return malformedRequest("qwen", "PreToolUse", "the hook input has no hook_event_name", payload);
    const cwd = str(payload.cwd);
    const base: WireRequest = { agent: "qwen", event, sessionId: str(payload.session_id), raw: payload };
    // Only PreToolUse is wired by `install qwen`; other events get no opinion.
    if (event !== "PreToolUse") return { ...base, cwd };
    return mappedRequest(base, cwd, str(payload.tool_name), payload.tool_input, QWEN_TOOLS);
  },
  render(_req: WireRequest, answer: Answer): WireAnswer {
    if (answer.kind === "deny" || answer.kind === "ask") {
      const reason = refusalReason(answer, "Qwen Code");
      return { body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }, exitCode: 0 };
    }
    return { body: {}, exitCode: 0 };
  },
};
