// Google Gemini CLI (`@google/gemini-cli`, measured 0.61.0): a BeforeTool command hook. stdin:
// {session_id, transcript_path, cwd, hook_event_name:"BeforeTool", timestamp, tool_name,
// tool_input} with Gemini's own tool names (../shared/notes/more-agents.md).
//
// What Gemini honours (measured): `{"decision":"deny","reason":R}` on exit 0 (the model reads
// "Tool execution blocked: R"), or exit 2 + stderr. Exit 1, garbage or a timeout (60 s default)
// RUN the call. We print a deny or `{}`: `{}` is no opinion (Gemini's own approval applies), and a
// human's Allow is `{}` too, so no answer of ours ever widens what Gemini itself would allow.
import { posix } from "node:path";
import type { Answer } from "../render";
import { malformedRequest, refusalReason } from "./common";
import { isObject as isObj, str, type AgentWire, type Json as Obj, type WireAnswer, type WireRequest } from "./types";

type Mapper = (input: Obj) => { tool: string; input: Record<string, unknown> } | string;

/** Gemini tool → the engine's tool and input; a string is why the input cannot be read. */
const TOOLS: Record<string, Mapper> = {
  run_shell_command: (i) => (typeof i.command === "string" ? { tool: "bash", input: { command: i.command } } : "a run_shell_command call needs a string `command`"),
  write_file: (i) => (typeof i.file_path === "string" ? { tool: "write", input: { file_path: i.file_path } } : "a write_file call needs a string `file_path`"),
  replace: (i) => (typeof i.file_path === "string" ? { tool: "edit", input: { file_path: i.file_path } } : "a replace call needs a string `file_path`"),
  // read_file took `absolute_path` in older builds.
  read_file: (i) => {
    const p = str(i.file_path) ?? str(i.absolute_path);
    return p !== undefined ? { tool: "read", input: { file_path: p } } : "a read_file call needs a string `file_path`";
  },
  list_directory: (i) => ({ tool: "ls", input: { path: str(i.dir_path) ?? str(i.path) ?? "." } }),
  glob: (i) => ({ tool: "glob", input: { path: str(i.dir_path) ?? str(i.path) ?? ".", ...(typeof i.pattern === "string" && { pattern: i.pattern }) } }),
  grep_search: (i) => ({ tool: "grep", input: { path: str(i.dir_path) ?? str(i.path) ?? ".", ...(typeof i.include_pattern === "string" && { glob: i.include_pattern }) } }),
};
TOOLS.search_file_content = TOOLS.grep_search!;

export const geminiWire: AgentWire = {
  id: "gemini",
  label: "Gemini CLI",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("gemini", "PreToolUse", "the hook input is not a JSON object", payload);
    const event = str(payload.hook_event_name);
    if (!event) return malformedRequest("gemini", "PreToolUse", "the hook input has no hook_event_name", payload);
    let cwd = str(payload.cwd);
    const base: WireRequest = { agent: "gemini", event: event === "BeforeTool" ? "PreToolUse" : event, sessionId: str(payload.session_id), raw: payload };
    // Only BeforeTool is wired by `install gemini`; other events get no opinion.
    if (event !== "BeforeTool") return { ...base, cwd };
    const tool = str(payload.tool_name);
    const input = payload.tool_input;
    if (tool) base.toolName = tool;
    if (!tool || !isObj(input)) return { ...base, cwd, malformed: "malformed gemini hook request: no tool_name or tool_input object" };
    const map = TOOLS[tool];
    // MCP tools (mcp_<server>_<tool>: judged by their arguments, src/engine/mcp/), web_fetch, …: passed on as they are.
    if (!map) return { ...base, cwd, call: { tool, input } };
    const call = map(input);
    if (typeof call === "string") return { ...base, cwd, malformed: `malformed gemini hook request: ${call}` };
    // run_shell_command runs in `dir_path` when the model gives one: judge it where it runs.
    if (tool === "run_shell_command" && typeof input.dir_path === "string" && input.dir_path !== "" && cwd?.startsWith("/")) {
      cwd = posix.resolve(cwd, input.dir_path);
    }
    return { ...base, cwd, call };
  },
  render(_req: WireRequest, answer: Answer): WireAnswer {
    if (answer.kind === "deny" || answer.kind === "ask") return { body: { decision: "deny", reason: refusalReason(answer, "Gemini CLI") }, exitCode: 0 };
    return { body: {}, exitCode: 0 };
  },
};
