// OpenAI Codex CLI (`@openai/codex`, measured 0.171.0): a PreToolUse command hook with
// Claude-shaped stdin {session_id, turn_id, cwd, hook_event_name, tool_name:"Bash",
// tool_input:{command}, tool_use_id} (../shared/notes/more-agents.md).
//
// What Codex honours (measured): hookSpecificOutput.permissionDecision "deny" (+reason) on exit 0,
// or exit 2 + stderr. It rejects "allow" and "ask" as unsupported and then RUNS the call, and exit
// 1, garbage or a timeout also run it. So we only ever print a deny or nothing: no opinion is `{}`,
// a human's Allow is `{}` too (Codex's own approval policy still applies), and an ask we could not
// put to a human is a deny.
import type { Answer } from "../render";
import { TOOL_RESULT } from "../events";
import { malformedRequest, refusalReason } from "./common";
import { isObject as isObj, str, type AgentWire, type WireAnswer, type WireRequest } from "./types";

/** Codex's apply_patch envelope: the files one patch touches, and how. */
const PATCH_OP = /^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

export function patchOps(patch: string): { op: "add" | "update" | "delete" | "move"; path: string }[] {
  const ops: { op: "add" | "update" | "delete" | "move"; path: string }[] = [];
  for (const m of patch.matchAll(PATCH_OP)) {
    if (m[3] !== undefined) ops.push({ op: "move", path: m[3].trim() });
    else ops.push({ op: m[1]!.toLowerCase() as "add" | "update" | "delete", path: m[2]!.trim() });
  }
  return ops;
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** An argv array as the shell line that runs it (words the shell would change are quoted). */
export function argvLine(argv: readonly string[]): string {
  return argv.map((c) => (/^[\w@%+=:,./-]+$/.test(c) ? c : shq(c))).join(" ");
}

/**
 * An apply_patch call in the engine's vocabulary. One added/updated file is a write/edit of it;
 * anything else (deletes, moves, several files) is shown to the rules as the shell commands with
 * the same effects, so no-delete and read-only paths hold for every file the patch touches.
 */
export function patchCall(patch: string): { tool: string; input: Record<string, unknown> } | undefined {
  const ops = patchOps(patch);
  if (ops.length === 0) return undefined;
  if (ops.length === 1 && ops[0]!.op !== "delete" && ops[0]!.op !== "move") {
    return { tool: ops[0]!.op === "add" ? "write" : "edit", input: { file_path: ops[0]!.path } };
  }
  const parts: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (o.op === "delete") parts.push(`rm -- ${shq(o.path)}`);
    else if (o.op === "move") {
      // "*** Move to:" follows the "*** Update File:" of the file being moved: that file goes away.
      const from = i > 0 && ops[i - 1]!.op === "update" ? ops[i - 1]!.path : undefined;
      parts.push(from ? `mv -- ${shq(from)} ${shq(o.path)}` : `touch -- ${shq(o.path)}`);
    } else parts.push(`touch -- ${shq(o.path)}`);
  }
  return { tool: "bash", input: { command: parts.join("; ") } };
}

/** A shell call's post-tool payload: the command as it ran and its output (a string in 0.171.0). */
function shellResult(payload: Record<string, unknown>): Pick<WireRequest, "result"> {
  const tool = str(payload.tool_name);
  const command = isObj(payload.tool_input) ? payload.tool_input.command : undefined;
  const output = payload.tool_response;
  if ((tool !== "Bash" && tool !== "shell" && tool !== "exec_command") || typeof command !== "string" || typeof output !== "string") return {};
  return { result: { command, output } };
}

export const codexWire: AgentWire = {
  id: "codex",
  label: "Codex CLI",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("codex", "PreToolUse", "the hook input is not a JSON object", payload);
    const event = str(payload.hook_event_name);
    if (!event) return malformedRequest("codex", "PreToolUse", "the hook input has no hook_event_name", payload);
    const base: WireRequest = { agent: "codex", event, cwd: str(payload.cwd), sessionId: str(payload.session_id), raw: payload };
    // PostToolUse (measured 0.171.0): {…, tool_name:"Bash", tool_input:{command}, tool_response:
    // "<stdout and stderr as the model reads them>", tool_use_id}; tool_input is the command as it
    // ran (our runner's wrapper when the hook rewrote it). Read for the kernel's refusals only.
    if (event === "PostToolUse") return { ...base, event: TOOL_RESULT, ...shellResult(payload) };
    // PreToolUse and PostToolUse are wired by `install codex`; any other event gets no opinion.
    if (event !== "PreToolUse") return base;
    const tool = str(payload.tool_name);
    const input = payload.tool_input;
    if (tool) base.toolName = tool;
    if (!tool || input === undefined) return { ...base, malformed: "malformed codex hook request: no tool_name or tool_input" };
    if (tool === "Bash" || tool === "shell" || tool === "exec_command") {
      const command = isObj(input) ? input.command : undefined;
      // Older builds sent argv arrays; a shell line is what the engine reads.
      const line = Array.isArray(command) && command.every((c) => typeof c === "string") ? argvLine(command) : command;
      if (typeof line !== "string") return { ...base, malformed: "malformed codex hook request: a Bash call needs a string `command`" };
      return { ...base, call: { tool: "bash", input: { command: line } } };
    }
    if (tool === "apply_patch") {
      const patch = isObj(input) ? (str(input.command) ?? str(input.input) ?? str(input.patch)) : str(input);
      if (patch === undefined) return { ...base, malformed: "malformed codex hook request: an apply_patch call needs the patch text" };
      const call = patchCall(patch);
      if (!call) return { ...base, malformed: "malformed codex hook request: the patch names no file" };
      return { ...base, call };
    }
    // MCP tools (mcp__<server>__<tool>: judged by their arguments, src/engine/mcp/) and the rest: passed on as they are.
    return { ...base, call: { tool, input } };
  },
  render(req: WireRequest, answer: Answer): WireAnswer {
    // After the call ran there is nothing to refuse or rewrite: no opinion, whatever the answer.
    if (req.event === TOOL_RESULT) return { body: {}, exitCode: 0 };
    if (answer.kind === "deny" || answer.kind === "ask") {
      const reason = refusalReason(answer, "Codex CLI");
      return { body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }, exitCode: 0 };
    }
    // Run it in our sandbox: Codex takes updatedInput only with "allow" (measured, docs/sandbox-runner.md),
    // so the rewrite rides on an allow — given only where the rules or a human already let it run.
    if (answer.run !== undefined) {
      const input = isObj(req.raw) && isObj(req.raw.tool_input) ? req.raw.tool_input : {};
      return { body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "Runs in the Damage Control sandbox", updatedInput: { ...input, command: answer.run } } }, exitCode: 0 };
    }
    // neutral, or a human's Allow: Codex has no "allow" it honours; no opinion lets its own policy apply.
    return { body: {}, exitCode: 0 };
  },
};
