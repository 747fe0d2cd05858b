// Google Gemini CLI (`@google/gemini-cli`, measured 0.61.0): a BeforeTool command hook. stdin:
// {session_id, transcript_path, cwd, hook_event_name:"BeforeTool", timestamp, tool_name,
// tool_input} with Gemini's own tool names (../shared/notes/more-agents.md).
//
// What Gemini honours (measured): `{"decision":"deny","reason":R}` on exit 0 (the model reads
// "Tool execution blocked: R"), or exit 2 + stderr. Exit 1, garbage or a timeout (60 s default)
// RUN the call. We print a deny or `{}`: `{}` is no opinion (Gemini's own approval applies), and a
// human's Allow is `{}` too, so no answer of ours ever widens what Gemini itself would allow.
import { TOOL_RESULT } from "../events";
import type { Answer } from "../render";
import { malformedRequest, mappedRequest, refusalReason, type MappedTools, type ToolMapper } from "./common";
import { isObject as isObj, str, type AgentWire, type WireAnswer, type WireRequest } from "./types";


/** Gemini tool → the engine's tool and input; a string is why the input cannot be read. */
const TOOLS: Record<string, ToolMapper> = {
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

const GEMINI_TOOLS: MappedTools = { tools: TOOLS, request: "malformed gemini hook request", missing: "no tool_name or tool_input object", shell: { tool: "run_shell_command", dirKey: "dir_path" } };

/** A shell call's AfterTool payload: the command as it ran and its output as printed. */
function shellResult(payload: Record<string, unknown>): Pick<WireRequest, "result"> {
  const command = isObj(payload.tool_input) ? payload.tool_input.command : undefined;
  const r = payload.tool_response;
  const output = isObj(r) ? (str(r.returnDisplay) ?? str(r.llmContent)) : str(r);
  if (payload.tool_name !== "run_shell_command" || typeof command !== "string" || output === undefined) return {};
  return { result: { command, output } };
}

export const geminiWire: AgentWire = {
  id: "gemini",
  label: "Gemini CLI",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("gemini", "PreToolUse", "the hook input is not a JSON object", payload);
    const event = str(payload.hook_event_name);
    if (!event) return malformedRequest("gemini", "PreToolUse", "the hook input has no hook_event_name", payload);
    const cwd = str(payload.cwd);
    const base: WireRequest = { agent: "gemini", event: event === "BeforeTool" ? "PreToolUse" : event, sessionId: str(payload.session_id), raw: payload };
    // AfterTool (measured 0.61.0): {…, tool_name, tool_input:{command} (our runner's wrapper when
    // BeforeTool rewrote it), tool_response:{llmContent, returnDisplay}}: returnDisplay is the
    // output as printed, llmContent the same wrapped for the model. Read for the kernel's refusals only.
    if (event === "AfterTool") return { ...base, event: TOOL_RESULT, cwd, ...shellResult(payload) };
    // BeforeTool and AfterTool are wired by `install gemini`; other events get no opinion.
    if (event !== "BeforeTool") return { ...base, cwd };
    return mappedRequest(base, cwd, str(payload.tool_name), payload.tool_input, GEMINI_TOOLS);
  },
  render(req: WireRequest, answer: Answer): WireAnswer {
    // After the call ran there is nothing to refuse or rewrite: no opinion, whatever the answer.
    if (req.event === TOOL_RESULT) return { body: {}, exitCode: 0 };
    if (answer.kind === "deny" || answer.kind === "ask") return { body: { decision: "deny", reason: refusalReason(answer, "Gemini CLI") }, exitCode: 0 };
    // Run it in our sandbox: Gemini merges hookSpecificOutput.tool_input over the model's arguments.
    if (answer.run !== undefined) return { body: { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: answer.run } } }, exitCode: 0 };
    return { body: {}, exitCode: 0 };
  },
};
