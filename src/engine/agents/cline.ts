// Cline CLI (`cline`, measured 3.0.65): an executable named `PreToolUse` in ~/.cline/hooks/ (or a
// project's .clinerules/hooks/) gets {hookName:"tool_call", taskId, workspaceRoots, tool_call:{id,
// name, input}, preToolUse:{toolName, parameters}, …} on stdin (docs/agents-more.md).
//
// What Cline honours (measured, its bundled hook runner): the stdout JSON, whatever the exit code.
// `{"cancel":true,"errorMessage":R}` keeps the call from running but ENDS THE WHOLE RUN and the
// model is never told. Per call there is `overrideInput` (the tool runs with that input instead)
// and `context` (text the model reads next). So a refused run_commands call becomes a fixed
// command that only prints a sanitized copy of the reason and exits 1, plus the full reason as
// context: the model reads why, and the run goes on. Every other tool is refused with cancel (no
// replacement input was measured as harmless for it). Exit codes, garbage and timeouts RUN the
// call, so the hook file and the launcher end no other way than with one of these JSON answers.
//
// PostToolUse (an executable of that name, hookName "tool_result"): read into ToolResult for the
// kernel's refusals inside our sandbox, answered `{}` (cancel would end the run there too).
import { TOOL_RESULT } from "../events";
import type { Answer } from "../render";
import type { ToolCall } from "../toolcall";
import { argvLine, patchCall } from "./codex";
import { malformedRequest, refusalReason } from "./common";
import { isObject as isObj, str, type AgentWire, type Json as Obj, type WireAnswer, type WireRequest } from "./types";

/** The calls one Cline tool call stands for (each judged), or why its input cannot be read. */
type Mapper = (input: unknown) => ToolCall[] | string;

/** run_commands entries (Cline's accepted forms): a shell line, or {command, args} run without a shell. */
function commandEntries(input: unknown): unknown[] {
  if (typeof input === "string") return [input];
  if (Array.isArray(input)) return input;
  if (!isObj(input)) return [];
  if ("commands" in input) return Array.isArray(input.commands) ? input.commands : [input.commands];
  if ("command" in input) return "args" in input ? [input] : [input.command];
  if ("cmd" in input) return [input.cmd];
  return [];
}

function runCommands(input: unknown): ToolCall[] | string {
  const entries = commandEntries(input);
  if (entries.length === 0) return "a run_commands call needs `commands`";
  const calls: ToolCall[] = [];
  for (const e of entries) {
    if (typeof e === "string") calls.push({ tool: "bash", input: { command: e } });
    else if (isObj(e) && typeof e.command === "string" && (e.args === undefined || (Array.isArray(e.args) && e.args.every((a) => typeof a === "string")))) {
      calls.push({ tool: "bash", input: { command: argvLine([e.command, ...((e.args as string[] | undefined) ?? [])]) } });
    } else return "a run_commands entry must be a string or {command, args}";
  }
  return calls;
}

/** read_files paths (Cline's accepted forms): strings or {path|file_path|filePath}, alone, in a list or under files/file_paths/paths. */
function readPaths(input: unknown): string[] | undefined {
  const one = (v: unknown): string | undefined => (typeof v === "string" ? v : isObj(v) ? (str(v.path) ?? str(v.file_path) ?? str(v.filePath)) : undefined);
  const many = (v: unknown): string[] | undefined => {
    const list = Array.isArray(v) ? v.map(one) : [one(v)];
    return list.length > 0 && list.every((p): p is string => p !== undefined) ? list : undefined;
  };
  if (isObj(input)) {
    for (const k of ["files", "file_paths", "paths"]) if (k in input) return many(input[k]);
  }
  return many(input);
}

const TOOLS: Record<string, Mapper> = {
  run_commands: runCommands,
  read_files: (i) => readPaths(i)?.map((p) => ({ tool: "read", input: { file_path: p } })) ?? "a read_files call needs file paths",
  // Regex queries over the workspace: a recursive read of it.
  search_codebase: () => [{ tool: "grep", input: { path: "." } }],
  // An edit with old_text or insert_line; without them it creates (or replaces) the file: a write.
  editor: (i) => {
    if (!isObj(i) || typeof i.path !== "string") return "an editor call needs a string `path`";
    const edit = (typeof i.old_text === "string" && i.old_text !== "") || (i.insert_line !== undefined && i.insert_line !== null);
    return [{ tool: edit ? "edit" : "write", input: { file_path: i.path } }];
  },
  // Codex's envelope: every file the patch adds, updates, moves or deletes.
  apply_patch: (i) => {
    const text = typeof i === "string" ? i : isObj(i) ? str(i.input) : undefined;
    if (text === undefined) return "an apply_patch call needs the patch text";
    const call = patchCall(text);
    return call ? [call] : "the patch names no file";
  },
};

export const CLINE_RUN_COMMANDS = "run_commands";

/** The reason as words the refusal command may print: letters, digits and `,.:_/-` only (no quote, no backslash, no shell operator, in any shell Cline may use). */
export function printableReason(reason: string): string {
  return reason.replace(/[^A-Za-z0-9 ,.:_/-]+/g, " ").replace(/ {2,}/g, " ").trim().slice(0, 500);
}

/** The input a refused run_commands call runs instead: prints the (sanitized) reason on stderr, exit 1. */
export function refusalCommands(reason: string): { commands: string[] } {
  return { commands: [`printf '%s\\n' '${printableReason(reason)}' >&2; exit 1`] };
}

/** The answer that refuses one call: per call for run_commands, the whole run otherwise. */
export function clineRefusal(toolName: string | undefined, reason: string): Obj {
  if (toolName === CLINE_RUN_COMMANDS) return { overrideInput: refusalCommands(reason), context: reason };
  return { cancel: true, errorMessage: reason };
}

/**
 * A run_commands call's PostToolUse payload (hookName "tool_result", measured 3.0.65):
 * tool_result:{name:"run_commands", input:{commands:[C]} (our runner's wrapper when the pre-tool
 * hook rewrote it), output:[{query:C, result:"<stdout and stderr>", success}]}. Our rewrite is
 * always one command, so only a call of one command is read: its entry's result is its output.
 */
function shellResult(payload: Obj): Pick<WireRequest, "result"> {
  const r = payload.tool_result;
  if (!isObj(r) || r.name !== CLINE_RUN_COMMANDS) return {};
  const entries = commandEntries(r.input);
  const command = entries.length === 1 ? entries[0] : undefined;
  if (typeof command !== "string") return {};
  const out = Array.isArray(r.output) ? r.output.find((o) => isObj(o) && o.query === command) : undefined;
  const output = typeof r.output === "string" ? r.output : isObj(out) ? str(out.result) : undefined;
  return output === undefined ? {} : { result: { command, output } };
}

export const clineWire: AgentWire = {
  id: "cline",
  label: "Cline",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("cline", "PreToolUse", "the hook input is not a JSON object", payload);
    const hook = str(payload.hookName);
    if (!hook) return malformedRequest("cline", "PreToolUse", "the hook input has no hookName", payload);
    const roots = payload.workspaceRoots;
    const cwd = Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : isObj(payload.workspaceInfo) ? str(payload.workspaceInfo.rootPath) : undefined;
    const base: WireRequest = { agent: "cline", event: hook === "tool_call" ? "PreToolUse" : hook, sessionId: str(payload.taskId), raw: payload };
    // PostToolUse (hookName "tool_result"): read for the kernel's refusals only (docs/sandbox.md).
    if (hook === "tool_result") return { ...base, event: TOOL_RESULT, cwd, ...shellResult(payload) };
    // PreToolUse and PostToolUse are wired by `install cline`; other events get no opinion.
    if (hook !== "tool_call") return { ...base, cwd };
    const call = payload.tool_call;
    const tool = isObj(call) ? str(call.name) : undefined;
    if (tool) base.toolName = tool;
    if (!isObj(call) || !tool || !("input" in call)) return { ...base, cwd, malformed: "malformed cline hook request: no tool_call with a name and an input" };
    const map = TOOLS[tool];
    // fetch_web_content, skills, ask_question, spawn_agent, team_*, MCP tools: outside what the rules describe.
    if (!map) return { ...base, cwd, call: { tool, input: call.input } };
    const calls = map(call.input);
    if (typeof calls === "string") return { ...base, cwd, malformed: `malformed cline hook request: ${calls}` };
    return { ...base, cwd, call: calls[0], ...(calls.length > 1 && { calls }) };
  },
  render(req: WireRequest, answer: Answer): WireAnswer {
    // After the call ran there is nothing to refuse or rewrite: `{}` is Cline's no-op there (a
    // `cancel` would end the whole run, a `context` would reach the model).
    if (req.event === TOOL_RESULT) return { body: {}, exitCode: 0 };
    if (answer.kind === "deny" || answer.kind === "ask") return { body: clineRefusal(req.toolName, refusalReason(answer, "Cline")), exitCode: 0 };
    // Run it in our sandbox: overrideInput replaces the call's input (one command: the sandbox step
    // rewrites only a call that stands for one); Cline's own approval settings still apply.
    if (answer.run !== undefined && req.toolName === CLINE_RUN_COMMANDS) return { body: { overrideInput: { commands: [answer.run] } }, exitCode: 0 };
    // neutral, or a human's Allow: `{}` lets Cline's own approval settings apply.
    return { body: {}, exitCode: 0 };
  },
};
