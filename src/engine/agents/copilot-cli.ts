// GitHub Copilot CLI (`@github/copilot`, measured 1.0.102), its own lower-case `preToolUse`
// entries in .github/hooks/*.json. stdin: {sessionId, timestamp (ms), cwd, toolName, toolArgs}
// where toolArgs is the tool's arguments — an object, or the same object as a JSON string
// (both seen; the docs say object). (../shared/notes/more-agents.md)
//
// What it honours (measured): top-level `{"permissionDecision":"deny","permissionDecisionReason":R}`
// (the model reads "Denied by preToolUse hook: R"). A Claude-shaped hookSpecificOutput answer is
// IGNORED there (the command runs); exit 2 denies but hides our reason; garbage and timeouts run
// the call. Documented decisions: allow | deny | ask. We print a deny, `{}` for no opinion, and
// "allow" only for a human's Allow in our modal (so the user is not asked a second time).
// (The VS Code-format entry Copilot CLI also runs from .github/hooks is Claude-shaped: vscode.ts.)
import { clipReason, type Answer } from "../render";
import { malformedRequest, refusalReason } from "./common";
import { isObject as isObj, str, type AgentWire, type Json as Obj, type WireAnswer, type WireRequest } from "./types";

type Mapped = { tool: string; input: Record<string, unknown> } | string;

const pathOf = (i: Obj): string | undefined => str(i.path) ?? str(i.file_path);

/** Copilot CLI tool → the engine's tool and input; a string is why the input cannot be read. */
const TOOLS: Record<string, (i: Obj) => Mapped> = {
  bash: (i) => (typeof i.command === "string" ? { tool: "bash", input: { command: i.command } } : "a bash call needs a string `command`"),
  // On Windows the shell tool is "powershell": read as PowerShell (src/engine/powershell/).
  powershell: (i) => (typeof i.command === "string" ? { tool: "powershell", input: { command: i.command } } : "a powershell call needs a string `command`"),
  view: (i) => (pathOf(i) !== undefined ? { tool: "read", input: { file_path: pathOf(i) } } : "a view call needs a string `path`"),
  create: (i) => (pathOf(i) !== undefined ? { tool: "write", input: { file_path: pathOf(i) } } : "a create call needs a string `path`"),
  edit: (i) => (pathOf(i) !== undefined ? { tool: "edit", input: { file_path: pathOf(i) } } : "an edit call needs a string `path`"),
  str_replace: (i) => (pathOf(i) !== undefined ? { tool: "edit", input: { file_path: pathOf(i) } } : "a str_replace call needs a string `path`"),
  glob: (i) => ({ tool: "glob", input: { path: pathOf(i) ?? ".", ...(typeof i.pattern === "string" && { pattern: i.pattern }) } }),
  grep: (i) => ({ tool: "grep", input: { path: pathOf(i) ?? ".", ...(typeof i.glob === "string" && { glob: i.glob }) } }),
};

/** toolArgs as an object: an object as is, a JSON string parsed; anything else is unreadable. */
export function toolArgsOf(v: unknown): Obj | undefined {
  if (isObj(v)) return v;
  if (typeof v === "string") {
    try {
      const parsed: unknown = JSON.parse(v);
      return isObj(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The lower-case preToolUse stdin (the way `hook copilot` tells it from the Claude-shaped one). */
export function isCopilotCliPayload(payload: unknown): boolean {
  return isObj(payload) && typeof payload.toolName === "string" && payload.hook_event_name === undefined;
}

export const copilotCliWire: AgentWire = {
  id: "copilot-cli",
  label: "Copilot CLI",
  read(payload: unknown): WireRequest {
    if (!isObj(payload)) return malformedRequest("copilot-cli", "PreToolUse", "the hook input is not a JSON object", payload);
    const base: WireRequest = { agent: "copilot-cli", event: "PreToolUse", cwd: str(payload.cwd), sessionId: str(payload.sessionId), raw: payload };
    const tool = str(payload.toolName);
    if (tool) base.toolName = tool;
    if (!tool) return { ...base, malformed: "malformed copilot-cli hook request: no toolName" };
    const args = toolArgsOf(payload.toolArgs);
    if (!args) return { ...base, malformed: "malformed copilot-cli hook request: toolArgs is neither an object nor a JSON object string" };
    const map = TOOLS[tool];
    if (!map) return { ...base, call: { tool, input: args } };
    const call = map(args);
    if (typeof call === "string") return { ...base, malformed: `malformed copilot-cli hook request: ${call}` };
    return { ...base, call };
  },
  render(_req: WireRequest, answer: Answer): WireAnswer {
    if (answer.kind === "deny" || answer.kind === "ask") {
      return { body: { permissionDecision: "deny", permissionDecisionReason: refusalReason(answer, "Copilot CLI") }, exitCode: 0 };
    }
    if (answer.kind === "allow") return { body: { permissionDecision: "allow", permissionDecisionReason: clipReason(answer.reason) }, exitCode: 0 };
    return { body: {}, exitCode: 0 };
  },
};
