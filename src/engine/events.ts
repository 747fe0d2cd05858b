// The single source of truth for Claude Code hook events: what each one is, which answer shape
// the runtime honours, and whether Damage Control enforces rules on it. The decider
// (claude-hook.ts) and the renderer (render.ts) both read this table, so they cannot disagree.
// A deny in the wrong shape is silently no deny: every shape here was measured or documented
// (../shared/notes/claude-code-hooks.md §1, §3).

/** gate: can stop something; context: adds context only; observe: the answer is ignored. */
export type EventClass = "gate" | "context" | "observe";

/** How a refusal must be written for this event to honour it. */
export type DenyShape =
  /** hookSpecificOutput.permissionDecision allow/deny/ask + permissionDecisionReason */
  | "permissionDecision"
  /** hookSpecificOutput.decision.behavior allow/deny (+ message) */
  | "permissionBehavior"
  /** top-level decision:"block" + reason */
  | "decisionBlock"
  /** top-level continue:false + stopReason */
  | "continueFalse"
  /** hookSpecificOutput.action decline */
  | "elicitationAction"
  /** no way to refuse, or refusing means something else (Stop: block = keep running) */
  | "none";

/** What Damage Control does with the event. */
export type Enforcement =
  /** tool_name + tool_input are judged by the rules */
  | "rules"
  /** a settings change is refused when it would switch the guard off (tamper protection) */
  | "config"
  /** answered with no opinion: a neutral `{}` */
  | "neutral";

export interface HookEvent {
  name: string;
  class: EventClass;
  shape: DenyShape;
  enforce: Enforcement;
  /** HTTP hooks are accepted for this event (SessionStart and Setup take command hooks only). */
  http: boolean;
  /** First Claude Code version that knows the event, where it is newer than the baseline we support. */
  since?: string;
  /** One line on why it is classified this way. */
  note: string;
}

const row = (name: string, cls: EventClass, shape: DenyShape, enforce: Enforcement, note: string, extra: Partial<HookEvent> = {}): HookEvent => ({
  name,
  class: cls,
  shape,
  enforce,
  http: true,
  note,
  ...extra,
});

export const HOOK_EVENTS: readonly HookEvent[] = [
  row("PreToolUse", "gate", "permissionDecision", "rules", "Before every tool call: the main gate."),
  row("PermissionRequest", "gate", "permissionBehavior", "rules", "When Claude Code would prompt; deny `message` becomes the tool result."),
  row("PreSkillShellCommand", "gate", "permissionDecision", "rules", "A skill's inline shell command; may bypass PreToolUse.", { since: "2.1.332" }),
  row("PermissionDenied", "observe", "none", "neutral", "After a denial; only `retry` in auto mode."),
  row("UserPromptSubmit", "gate", "decisionBlock", "neutral", "The user's own prompt: not the agent's action."),
  row("UserPromptExpansion", "gate", "decisionBlock", "neutral", "Slash-command expansion of the user's prompt."),
  row("PostToolUse", "context", "decisionBlock", "neutral", "The tool already ran; a block only adds a message."),
  row("PostToolUseFailure", "context", "decisionBlock", "neutral", "The tool already failed."),
  row("PostToolBatch", "gate", "decisionBlock", "neutral", "After a batch of tool calls, before the next model call."),
  row("Stop", "gate", "none", "neutral", "Block means keep running: never block to deny."),
  row("SubagentStop", "gate", "none", "neutral", "Block means keep running: never block to deny."),
  row("TaskCreated", "gate", "decisionBlock", "neutral", "continue:false is ignored here; decision:block is honoured."),
  row("TaskCompleted", "gate", "continueFalse", "neutral", "exit 2 or continue:false."),
  row("TeammateIdle", "gate", "none", "neutral", "Refusing keeps the teammate working: never refuse to deny."),
  row("ConfigChange", "gate", "decisionBlock", "config", "A settings change: refused when it would drop our hooks or disable all hooks; policy settings cannot be blocked."),
  row("WorktreeCreate", "gate", "none", "neutral", "Answer is a worktree path; failure means no worktree."),
  row("PreCompact", "gate", "decisionBlock", "neutral", "Before context compaction."),
  row("Elicitation", "gate", "elicitationAction", "neutral", "An MCP server asks the user for input."),
  row("ElicitationResult", "gate", "elicitationAction", "neutral", "The user's answer to an elicitation."),
  row("PreModelSwitch", "gate", "permissionDecision", "neutral", "Its timeout blocks (documented fail-closed).", { since: "2.1.251" }),
  row("SessionStart", "context", "none", "neutral", "additionalContext only; HTTP hooks are skipped.", { http: false }),
  row("Setup", "context", "none", "neutral", "additionalContext only; command hooks only.", { http: false }),
  row("SubagentStart", "context", "none", "neutral", "additionalContext only."),
  row("PostModelSwitch", "context", "none", "neutral", "Output reaches the model on the next request.", { since: "2.1.251" }),
  row("Notification", "observe", "none", "neutral", "Answer ignored."),
  row("InstructionsLoaded", "observe", "none", "neutral", "Answer ignored."),
  row("CwdChanged", "observe", "none", "neutral", "Answer ignored."),
  row("DirectoryAdded", "observe", "none", "neutral", "Answer ignored."),
  row("FileChanged", "observe", "none", "neutral", "Answer ignored."),
  row("WorktreeRemove", "observe", "none", "neutral", "Answer ignored."),
  row("PostCompact", "observe", "none", "neutral", "Answer ignored."),
  row("SessionEnd", "observe", "none", "neutral", "Answer ignored."),
  row("MessageDisplay", "observe", "none", "neutral", "displayContent only changes what is shown."),
  row("StopFailure", "observe", "none", "neutral", "Answer ignored."),
];

/**
 * An event missing from the table: treated as a gate and refused in the PreToolUse shape.
 * A new event could be a new way to act; until it is classified it gets no silent pass.
 */
export const UNKNOWN_EVENT: Omit<HookEvent, "name"> = {
  class: "gate",
  shape: "permissionDecision",
  enforce: "rules",
  http: true,
  note: "Not in the table: deny-closed until classified.",
};

const byName = new Map(HOOK_EVENTS.map((e) => [e.name, e]));

export function lookupEvent(name: string): HookEvent | undefined {
  return byName.get(name);
}

/** The row for any event name; unknown names get the deny-closed row. */
export function eventRow(name: string): HookEvent & { known: boolean } {
  const known = byName.get(name);
  return known ? { ...known, known: true } : { ...UNKNOWN_EVENT, name, known: false };
}

/** Events whose tool calls the rules are enforced on. */
export function enforcedEvents(): HookEvent[] {
  return HOOK_EVENTS.filter((e) => e.enforce === "rules");
}

/** Events the installer registers hooks for: everything we do not answer neutrally. */
export function guardedEvents(): HookEvent[] {
  return HOOK_EVENTS.filter((e) => e.enforce !== "neutral");
}
