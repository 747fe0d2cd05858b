// OpenCode (`opencode-ai`, measured 1.18.33): our plugin's `tool.execute.before(input, output)`
// runs the launcher with {hook_event_name:"PreToolUse", tool: input.tool, args: output.args, cwd,
// sessionID, callID} on stdin (src/install/opencode-plugin.ts) and throws to refuse: the model
// reads the thrown message. OpenCode's tool names: bash {command, workdir?}, edit/write/read
// {filePath}, list {path}, glob/grep {pattern, path?}, apply_patch {patchText}; MCP tools are
// named <server>_<tool> (../shared/notes/more-agents.md).
//
// The answer: `{"decision":"deny","reason":R}` or `{}` (no opinion: OpenCode's own permission
// settings apply; a human's Allow is `{}` too). The plugin refuses on anything else.
import { TOOL_RESULT } from "../events";
import type { Answer } from "../render";
import { patchCall } from "./codex";
import { malformedRequest, mappedRequest, refusalReason, type MappedTools, type ToolMapper } from "./common";
import { isObject as isObj, str, type AgentWire, type Json as Obj, type WireAnswer, type WireRequest } from "./types";


const filePath = (tool: string, engine: string) => (i: Obj) => {
  const p = str(i.filePath) ?? str(i.file_path);
  return p !== undefined ? { tool: engine, input: { file_path: p } } : `a ${tool} call needs a string \`filePath\``;
};

/** OpenCode tool → the engine's tool and input; a string is why the input cannot be read. */
const TOOLS: Record<string, ToolMapper> = {
  bash: (i) => (typeof i.command === "string" ? { tool: "bash", input: { command: i.command } } : "a bash call needs a string `command`"),
  edit: filePath("edit", "edit"),
  multiedit: filePath("multiedit", "edit"),
  write: filePath("write", "write"),
  read: filePath("read", "read"),
  list: (i) => ({ tool: "ls", input: { path: str(i.path) ?? "." } }),
  glob: (i) => ({ tool: "glob", input: { path: str(i.path) ?? ".", ...(typeof i.pattern === "string" && { pattern: i.pattern }) } }),
  grep: (i) => ({ tool: "grep", input: { path: str(i.path) ?? ".", ...(typeof i.include === "string" && { glob: i.include }) } }),
  // The same envelope as Codex's apply_patch: every file it adds, updates, moves or deletes.
  apply_patch: (i) => {
    const text = str(i.patchText) ?? str(i.patch);
    if (text === undefined) return "an apply_patch call needs the string `patchText`";
    return patchCall(text) ?? "the patch names no file";
  },
};
TOOLS.patch = TOOLS.apply_patch!;

const OPENCODE_TOOLS: MappedTools = { tools: TOOLS, request: "malformed opencode plugin request", missing: "no tool or args object", shell: { tool: "bash", dirKey: "workdir" } };

export const opencodeWire: AgentWire = {
  id: "opencode",
  label: "OpenCode",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("opencode", "PreToolUse", "the plugin input is not a JSON object", payload);
    const cwd = str(payload.cwd);
    const base: WireRequest = { agent: "opencode", event: "PreToolUse", sessionId: str(payload.sessionID), raw: payload };
    // The plugin's tool.execute.after for a call it rewrote: {hook_event_name:"PostToolUse", tool:
    // "bash", args:{command: <our wrapper>}, output, cwd, sessionID, callID}. Read for the kernel's refusals only.
    if (payload.hook_event_name === "PostToolUse") {
      const command = isObj(payload.args) ? str(payload.args.command) : undefined;
      const output = str(payload.output);
      return { ...base, event: TOOL_RESULT, cwd, ...(payload.tool === "bash" && command !== undefined && output !== undefined && { result: { command, output } }) };
    }
    return mappedRequest(base, cwd, str(payload.tool), payload.args, OPENCODE_TOOLS);
  },
  render(req: WireRequest, answer: Answer): WireAnswer {
    // After the call ran there is nothing to refuse or rewrite: no opinion, whatever the answer.
    if (req.event === TOOL_RESULT) return { body: {}, exitCode: 0 };
    if (answer.kind === "deny" || answer.kind === "ask") return { body: { decision: "deny", reason: refusalReason(answer, "OpenCode") }, exitCode: 0 };
    // Run it in our sandbox: the plugin sets output.args.command to this (OpenCode runs the args as the plugin leaves them).
    if (answer.run !== undefined) return { body: { command: answer.run }, exitCode: 0 };
    return { body: {}, exitCode: 0 };
  },
};
