// The single source of truth for Claude Code hook events: what each one is, which answer shape
// the runtime honours, and whether Damage Control enforces rules on it. The judge (judge.ts)
// and Claude Code's renderer (agents/claude.ts) both read this table, so they cannot disagree.
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

/**
 * How a gating event is answered when the rules have nothing to say about it.
 *   classic          answered by the rules; no matching rule = no opinion (advisory) or deny (governed)
 *   lifecycle        a documented safe default per event (`governed`), used in governed mode
 *   non-enforceable  always neutral: refusing would mean something else (Stop: block = keep running)
 *   none             not a gate: context or observe only, always neutral
 */
export type Tier = "classic" | "lifecycle" | "non-enforceable" | "none";

/**
 * advisory (default): the rules refuse what they match; everything else gets no opinion and Claude
 * Code's own permissions decide. governed: what the rules cannot vouch for is refused.
 */
export type Posture = "advisory" | "governed";

/** What an event gets by default, before or instead of the rules. */
export type DefaultAnswer = "neutral" | "deny";

export interface HookEvent {
  name: string;
  class: EventClass;
  shape: DenyShape;
  enforce: Enforcement;
  tier: Tier;
  /** The default in governed mode (advisory is always neutral). Classic gates: what a call no rule covers gets. */
  governed: DefaultAnswer;
  /** Hooks registered for it: always, only when governed (the endpoint's posture decides), or never. */
  install: "always" | "governed" | "never";
  /** HTTP hooks are accepted for this event (SessionStart and Setup take command hooks only). */
  http: boolean;
  /** First Claude Code version that knows the event, where it is newer than the baseline we support. */
  since?: string;
  /** One line on why it is classified this way. */
  note: string;
}

/**
 * The event a runner agent's post-tool payload is read into (agents/codex.ts, gemini.ts, cline.ts…):
 * its own name so that the rules never judge it (Claude Code's PostToolUse is judged, and its
 * refusal shape is Claude Code's alone) and an agent's answer to it is always no opinion.
 */
export const TOOL_RESULT = "ToolResult";

type Gate = { tier: Tier; governed: DefaultAnswer; install: HookEvent["install"] };
/** Classic gate: judged by the rules; a call no rule covers is refused when governed. */
const CLASSIC: Gate = { tier: "classic", governed: "deny", install: "always" };
/** Lifecycle gate, conversation or UX: neutral in both postures. */
const LIFE_NEUTRAL: Gate = { tier: "lifecycle", governed: "neutral", install: "never" };
/** Lifecycle gate that changes state: refused by default when governed. */
const LIFE_DENY: Gate = { tier: "lifecycle", governed: "deny", install: "governed" };
/** Refusing would mean something else: always neutral. */
const NEVER: Gate = { tier: "non-enforceable", governed: "neutral", install: "never" };
const NONE: Gate = { tier: "none", governed: "neutral", install: "never" };

const row = (name: string, cls: EventClass, shape: DenyShape, enforce: Enforcement, gate: Gate, note: string, extra: Partial<HookEvent> = {}): HookEvent => ({
  name,
  class: cls,
  shape,
  enforce,
  ...gate,
  http: true,
  note,
  ...extra,
});

export const HOOK_EVENTS: readonly HookEvent[] = [
  row("PreToolUse", "gate", "permissionDecision", "rules", CLASSIC, "Before every tool call: the main gate."),
  row("PermissionRequest", "gate", "permissionBehavior", "rules", CLASSIC, "When Claude Code would prompt; deny `message` becomes the tool result."),
  row("PreSkillShellCommand", "gate", "permissionDecision", "rules", CLASSIC, "A skill's inline shell command; may bypass PreToolUse.", { since: "2.1.332" }),
  row("PermissionDenied", "observe", "none", "neutral", NONE, "After a denial; only `retry` in auto mode."),
  row("UserPromptSubmit", "gate", "decisionBlock", "neutral", LIFE_NEUTRAL, "The user's own prompt: not the agent's action."),
  row("UserPromptExpansion", "gate", "decisionBlock", "neutral", LIFE_NEUTRAL, "Slash-command expansion of the user's prompt."),
  row("PostToolUse", "context", "decisionBlock", "rules", { ...CLASSIC, install: "governed" }, "The tool already ran: a rule's block tells the model after the fact (a shadowed PreToolUse is caught here); never asks."),
  row("PostToolUseFailure", "context", "decisionBlock", "neutral", NONE, "The tool already failed."),
  row("PostToolBatch", "gate", "decisionBlock", "neutral", LIFE_NEUTRAL, "After a batch of tool calls, before the next model call: refusing would stop every turn, neutral."),
  row("Stop", "gate", "none", "neutral", NEVER, "Block means keep running: never block to deny."),
  row("SubagentStop", "gate", "none", "neutral", NEVER, "Block means keep running: never block to deny."),
  row("TaskCreated", "gate", "decisionBlock", "neutral", LIFE_DENY, "Creates a task (state): refused by default when governed; continue:false is ignored here, decision:block is honoured."),
  row("TaskCompleted", "gate", "continueFalse", "neutral", LIFE_NEUTRAL, "A report: continue:false would stop the whole session, so neutral."),
  row("TeammateIdle", "gate", "none", "neutral", NEVER, "Refusing keeps the teammate working: never refuse to deny."),
  row("ConfigChange", "gate", "decisionBlock", "config", { ...LIFE_DENY, install: "always" }, "A settings change: refused when it would drop our hooks or disable all hooks; policy settings cannot be blocked. Governed: every other change is refused."),
  row("WorktreeCreate", "gate", "none", "neutral", NEVER, "Answer is a worktree path; there is no refusal shape."),
  row("PreCompact", "gate", "decisionBlock", "neutral", LIFE_NEUTRAL, "Before context compaction: conversation housekeeping, neutral."),
  row("Elicitation", "gate", "elicitationAction", "neutral", NEVER, "An MCP server asks the user for input."),
  row("ElicitationResult", "gate", "elicitationAction", "neutral", NEVER, "The user's answer to an elicitation."),
  row("PreModelSwitch", "gate", "permissionDecision", "neutral", LIFE_DENY, "Switches the model (state): refused by default when governed; its timeout blocks (documented fail-closed).", { since: "2.1.251" }),
  row("SessionStart", "context", "none", "neutral", NONE, "additionalContext only; HTTP hooks are skipped.", { http: false }),
  row("Setup", "context", "none", "neutral", NONE, "additionalContext only; command hooks only.", { http: false }),
  row("SubagentStart", "context", "none", "neutral", NONE, "additionalContext only."),
  row("PostModelSwitch", "context", "none", "neutral", NONE, "Output reaches the model on the next request.", { since: "2.1.251" }),
  row("Notification", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("InstructionsLoaded", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("CwdChanged", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("DirectoryAdded", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("FileChanged", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("WorktreeRemove", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("PostCompact", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("SessionEnd", "observe", "none", "neutral", NONE, "Answer ignored."),
  row("MessageDisplay", "observe", "none", "neutral", NONE, "displayContent only changes what is shown."),
  row("StopFailure", "observe", "none", "neutral", NONE, "Answer ignored."),
];

/**
 * Events of other agents that Claude Code has no counterpart for, read into these rows by their
 * adapters. Not in HOOK_EVENTS: nothing here is ever installed for Claude Code.
 */
export const OTHER_AGENT_EVENTS: readonly HookEvent[] = [
  // The post-tool events of the agents our sandbox runner covers (Codex PostToolUse, Gemini
  // AfterTool, Cline PostToolUse; pi and OpenCode through our plugins): the call already ran,
  // so the answer is always no opinion, in every posture.
  row(TOOL_RESULT, "observe", "none", "neutral", NONE, "A runner agent's post-tool event: the call already ran; its output is read for the kernel's refusals (docs/sandbox.md), never refused.", { install: "never" }),
];

/**
 * An event missing from the table: treated as a gate and refused in the PreToolUse shape.
 * A new event could be a new way to act; until it is classified it gets no silent pass.
 */
export const UNKNOWN_EVENT: Omit<HookEvent, "name"> = {
  class: "gate",
  shape: "permissionDecision",
  enforce: "rules",
  tier: "classic",
  governed: "deny",
  install: "never",
  http: true,
  note: "Not in the table: deny-closed until classified.",
};

const byName = new Map([...HOOK_EVENTS, ...OTHER_AGENT_EVENTS].map((e) => [e.name, e]));

/** The row for any event name; unknown names get the deny-closed row. */
export function eventRow(name: string): HookEvent & { known: boolean } {
  const known = byName.get(name);
  return known ? { ...known, known: true } : { ...UNKNOWN_EVENT, name, known: false };
}

/** Events whose tool calls the rules are enforced on. */
export function enforcedEvents(): HookEvent[] {
  return HOOK_EVENTS.filter((e) => e.enforce === "rules");
}

/** Events the installer registers hooks for in a posture. */
export function guardedEvents(posture: Posture = "advisory"): HookEvent[] {
  return HOOK_EVENTS.filter((e) => e.install === "always" || (posture === "governed" && e.install === "governed"));
}

/**
 * The answer an event gets when the rules give none: for a classic gate, a call no rule covers
 * (a tool the rules know nothing of); for a lifecycle gate, its documented default. Advisory is
 * always neutral; non-enforceable and non-gate events are neutral in every posture. A deny is only
 * ever returned for an event with a refusal shape the runtime honours.
 */
export function defaultAnswer(event: Pick<HookEvent, "tier" | "governed" | "shape">, posture: Posture): DefaultAnswer {
  if (posture !== "governed") return "neutral";
  if (event.tier !== "classic" && event.tier !== "lifecycle") return "neutral";
  if (event.shape === "none") return "neutral";
  return event.governed;
}

export function parsePosture(v: unknown): Posture | undefined {
  return v === "advisory" || v === "governed" ? v : undefined;
}
