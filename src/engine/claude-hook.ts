// A Claude Code hook payload (any event) → the engine's verdict, read from the event table.
// Pure: asking a human and rendering the body are the caller's steps.
import { decide } from "./decide";
import { eventRow, type HookEvent } from "./events";
import { blockReason } from "./reason";
import { normalizeToolCall } from "./toolcall";
import type { DecideContext, RuleSet, Verdict } from "./types";

export interface ClaudeJudgement {
  event: HookEvent & { known: boolean };
  /** undefined when the event is not judged by the rules (neutral). */
  verdict?: Verdict;
  tool?: string;
  input?: unknown;
  sessionId?: string;
  /** false when the rules know nothing of the tool (WebFetch, MCP tools…): "no rule matches". */
  covered?: boolean;
}

/** What we need from the caller besides the payload: rules, home, symlink resolution. */
export interface ClaudeHookContext extends Omit<DecideContext, "cwd"> {
  /** Used when the payload carries no usable cwd. */
  fallbackCwd: string;
}

export function judgeClaudeHook(payload: unknown, rules: RuleSet, ctx: ClaudeHookContext): ClaudeJudgement {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return malformed("PreToolUse", "the hook input is not a JSON object");
  }
  const p = payload as Record<string, unknown>;
  const name = typeof p.hook_event_name === "string" && p.hook_event_name !== "" ? p.hook_event_name : undefined;
  if (!name) return malformed("PreToolUse", "the hook input has no hook_event_name");
  const event = eventRow(name);
  const sessionId = typeof p.session_id === "string" ? p.session_id : undefined;
  if (event.enforce !== "rules") return { event, sessionId };
  if (!event.known) {
    return { event, sessionId, verdict: { action: "block", reason: blockReason(`the hook event "${name}" is unknown to this version of Damage Control, so it is refused until it is classified`) } };
  }

  // PreSkillShellCommand may carry the command directly; everything else has tool_name + tool_input.
  const tool = typeof p.tool_name === "string" ? p.tool_name : typeof p.command === "string" ? "Bash" : undefined;
  const input = p.tool_input ?? (typeof p.command === "string" ? { command: p.command } : undefined);
  if (!tool || input === undefined) {
    return { ...malformed(name, `the ${name} input has no tool_name or tool_input`), sessionId };
  }
  const cwd = typeof p.cwd === "string" && p.cwd.startsWith("/") ? p.cwd : ctx.fallbackCwd;
  const verdict = decide({ tool, input }, rules, { ...ctx, cwd }, "claude");
  const covered = normalizeToolCall({ tool, input }, "claude").kind !== "other";
  return { event, verdict, tool, input, sessionId, covered };
}

function malformed(eventName: string, why: string): ClaudeJudgement {
  return { event: eventRow(eventName), verdict: { action: "block", reason: blockReason(`malformed hook request: ${why}`) } };
}
