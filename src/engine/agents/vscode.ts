// VS Code's own agent (agent mode of the built-in chat) as a hook caller. Pure.
//
// Its PreToolUse stdin (measured, ../shared/notes/vscode-agent-hooks.md §3) is snake_case at the
// top and camelCase inside tool_input:
//   {"hook_event_name":"PreToolUse","session_id":"…","tool_name":"run_in_terminal",
//    "tool_input":{"command":"rm -rf data","explanation":"…"},"tool_use_id":"call_…","cwd":"/ws"}
// Its tools are mapped onto the engine's vocabulary (bash/read/write/edit/ls) here, so the rules
// judge them exactly as they judge Claude Code's and pi's.
//
// Answers (§4): VS Code fails OPEN on exit 1, on non-JSON and on a timeout, and an "allow" skips
// even its own deny rules. So: a refusal is exit 0 + permissionDecision "deny" (exit 2 also
// denies, for errors), no opinion is `{}`, and "allow" is only ever a human's Allow in our modal.
import { clipReason, type Answer } from "../render";
import type { ToolCall } from "../toolcall";
import { isObject, str, type AgentWire, type WireAnswer, type WireRequest } from "./types";

const MALFORMED = "malformed hook request: ";

/** Damage Control's own command ids: the agent running them would be switching the guard itself. */
const OUR_COMMANDS = /^damageControl\./i;

/** VS Code tools that write one file, by the key that names it. */
const WRITE_TOOLS: Record<string, { tool: "write" | "edit"; key: string }> = {
  create_file: { tool: "write", key: "filePath" },
  replace_string_in_file: { tool: "edit", key: "filePath" },
  insert_edit_into_file: { tool: "edit", key: "filePath" },
  edit_notebook_file: { tool: "edit", key: "filePath" },
  create_directory: { tool: "write", key: "dirPath" },
};

/** Every tool name this adapter maps (the Claude route uses it to spot a VS Code payload). */
export const VSCODE_TOOLS: ReadonlySet<string> = new Set([
  "run_in_terminal",
  "send_to_terminal",
  "read_file",
  "list_dir",
  "create_and_run_task",
  "run_vscode_command",
  ...Object.keys(WRITE_TOOLS),
]);

/** True when a hook payload is VS Code's shape (it also reaches Claude-format hooks with chat.useClaudeHooks). */
export function isVsCodePayload(payload: unknown): boolean {
  return isObject(payload) && typeof payload.tool_name === "string" && VSCODE_TOOLS.has(payload.tool_name);
}

/** POSIX-quotes one word of a task's argv, so `rm` with args reads as the shell would run it. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A task argument: a string, or VS Code's {value, quoting} form. */
function argText(a: unknown): string | undefined {
  if (typeof a === "string") return a;
  if (isObject(a) && typeof a.value === "string") return a.value;
  if (isObject(a) && Array.isArray(a.value) && a.value.every((x) => typeof x === "string")) return (a.value as string[]).join(" ");
  return undefined;
}

/** create_and_run_task: the command line the task runs, as bash sees it; undefined when it names none. */
export function taskCommand(task: unknown): string | undefined {
  if (!isObject(task)) return undefined;
  const command = argText(task.command);
  if (command === undefined) return undefined;
  const args = Array.isArray(task.args) ? task.args.map(argText) : [];
  if (args.some((a) => a === undefined)) return undefined;
  // A "shell" task's command is a shell line (args appended); a "process" task is argv.
  const words = args as string[];
  if (task.type === "process") return [command, ...words].map(quote).join(" ");
  return [command, ...words.map(quote)].join(" ");
}

/** VS Code's tool call → the engine's; a string when it cannot be read (refused). */
export function mapVsCodeTool(name: string, input: unknown): ToolCall | { refuse: string } | undefined {
  const i = isObject(input) ? input : {};
  switch (name) {
    case "run_in_terminal":
    case "send_to_terminal": {
      const command = str(i.command);
      if (command === undefined) return { refuse: `a ${name} call needs a string \`command\`` };
      return { tool: "bash", input: { command } };
    }
    case "read_file": {
      const filePath = str(i.filePath);
      if (filePath === undefined) return { refuse: "a read_file call needs a string `filePath`" };
      return { tool: "read", input: { file_path: filePath } };
    }
    case "list_dir": {
      const p = str(i.path);
      if (p === undefined) return { refuse: "a list_dir call needs a string `path`" };
      return { tool: "ls", input: { path: p } };
    }
    case "create_and_run_task": {
      const command = taskCommand(i.task);
      if (command === undefined) return { refuse: "a create_and_run_task call needs a task with a string `command` (and string `args`)" };
      return { tool: "bash", input: { command } };
    }
    case "run_vscode_command": {
      const id = str(i.commandId);
      if (id === undefined) return { refuse: "a run_vscode_command call needs a string `commandId`" };
      if (OUR_COMMANDS.test(id)) return { refuse: `the agent may not run Damage Control's own command ${id}: it is the guard itself` };
      // Typing into the terminal is running a command.
      if (id === "workbench.action.terminal.sendSequence") {
        const args = Array.isArray(i.args) ? i.args[0] : i.args;
        const text = isObject(args) ? str(args.text) : undefined;
        if (text !== undefined) return { tool: "bash", input: { command: text } };
      }
      // Any other VS Code command: the rules have nothing to say (VS Code's own confirmation applies).
      return undefined;
    }
  }
  const w = WRITE_TOOLS[name];
  if (w) {
    const p = str(i[w.key]);
    if (p === undefined) return { refuse: `a ${name} call needs a string \`${w.key}\`` };
    return { tool: w.tool, input: { file_path: p } };
  }
  // memory, runSubagent, MCP tools (mcp_<server>_<tool>, src/engine/mcp/)…: passed through under their own name; the engine decides
  // what a tool it does not know gets.
  return { tool: name, input };
}

export const vscodeWire: AgentWire = {
  id: "vscode",
  label: "VS Code's agent",
  read(payload: unknown): WireRequest {
    if (!isObject(payload)) return { agent: "vscode", event: "PreToolUse", malformed: `${MALFORMED}the hook input is not a JSON object`, raw: payload };
    const event = str(payload.hook_event_name) ?? str(payload.hookEventName);
    const cwd = str(payload.cwd);
    const sessionId = str(payload.session_id) ?? str(payload.sessionId);
    const base = { agent: "vscode" as const, event: event ?? "PreToolUse", ...(cwd && { cwd }), ...(sessionId && { sessionId }), raw: payload };
    if (!event) return { ...base, malformed: `${MALFORMED}the hook input has no hook_event_name` };
    // Only PreToolUse gates a call; other events (PostToolUse, SessionStart…) get no opinion.
    if (event !== "PreToolUse") return base;
    const name = str(payload.tool_name) ?? str(payload.toolName);
    if (!name) return { ...base, malformed: `${MALFORMED}the PreToolUse input has no tool_name` };
    const mapped = mapVsCodeTool(name, payload.tool_input ?? payload.toolInput);
    const named = { ...base, toolName: name };
    // No call on PreToolUse would be refused as malformed: a call the rules have nothing to say
    // about (another VS Code command) is handed over as the tool itself, which no rule covers.
    if (mapped === undefined) return { ...named, call: { tool: name, input: payload.tool_input ?? {} } };
    if ("refuse" in mapped) return { ...named, malformed: `${MALFORMED}${mapped.refuse}` };
    return { ...named, call: mapped };
  },
  render(req: WireRequest, answer: Answer): WireAnswer {
    return renderVsCode(req.event, answer);
  },
};

/** The body VS Code honours for an answer. Never "allow" except a human's Allow (the caller's promise). */
export function renderVsCode(event: string, answer: Answer): WireAnswer {
  // A word for the model beside an answer that lets the call run (a snapshot was kept and the user
  // can restore it): VS Code reads PreToolUse's additionalContext (its hook source).
  const context = event === "PreToolUse" && answer.context && answer.kind !== "deny" ? { additionalContext: clipReason(answer.context) } : undefined;
  if (answer.kind === "neutral" || event !== "PreToolUse") {
    // A refusal of a non-gating event cannot be expressed; nothing else is worth a word.
    return { body: context ? { hookSpecificOutput: { hookEventName: "PreToolUse", ...context } } : {}, exitCode: 0 };
  }
  const reason = answer.reason.length <= 4000 ? answer.reason : answer.reason.slice(0, 3999) + "…";
  return {
    body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: answer.kind, permissionDecisionReason: reason, ...context } },
    exitCode: 0,
  };
}
