// The one definition of the messages between the extension and the panel webview. Both sides
// import this module (the extension in src/views/panel/, the webview in src/webview/), after
// vscode-eslint's shared customMessages.ts: a message added or changed here is checked by tsc on
// both ends. Types only plus one validator: no `vscode`, no node modules (it is bundled for the browser).

export interface PanelDiagnostic {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  severity: "error" | "warning" | "information";
  message: string;
  code: string;
  /** The engine's quick fix, when it has one: its title, and the diagnostic's number in the
   *  draft (send it back in a "fix" edit). */
  fixTitle?: string;
  index: number;
}

export interface PanelFolder {
  folder: string;
  file: string;
  source: "file" | "default" | "last-good";
  broken: boolean;
  counts: { total: number; bashPatterns: number; ask: number; zeroAccess: number; readOnly: number; noDelete: number };
  diagnostics: PanelDiagnostic[];
  /** Rules changed into ones that no longer match what their previous version matched. */
  lost?: { line: number; pattern: string; examples: string[] }[];
}

/** The rule lists of a rules file, in file order. */
export type RuleList = "bashToolPatterns" | "toolNamePatterns" | "zeroAccessPaths" | "readOnlyPaths" | "noDeletePaths";
export const RULE_LISTS: readonly RuleList[] = ["bashToolPatterns", "toolNamePatterns", "zeroAccessPaths", "readOnlyPaths", "noDeletePaths"];

/** The lists whose entries are {KEY, reason, ask?} mappings, and the key of each entry's value. */
export const ENTRY_VALUE_KEY: Partial<Record<RuleList, "pattern" | "tool">> = { bashToolPatterns: "pattern", toolNamePatterns: "tool" };

/** One entry of one list, as the structured editor shows it. Rows are addressed by (list, index):
 *  the draft YAML on the extension side is the state, every edit is applied to it in place. */
export interface RuleRow {
  list: RuleList;
  /** The regex (bashToolPatterns) or the path entry, as written. */
  value: string;
  /** bashToolPatterns only. */
  reason?: string;
  ask?: boolean;
  /** 0-based first line of the entry in the draft text. */
  line: number;
  /** Where the rule comes from. Absent = "workspace" (the layered rules will fill it). */
  layer?: string;
}

/** A list's rows counted as the summary (core/counts.ts) counts rules: an exclusion ("!path") is
 *  not a rule of its own but an exception to one, so it is counted apart (issue 38: the summary
 *  said zero-access 8, the editor's heading 10, two of the ten being exclusions). */
export function listCount(rows: readonly Pick<RuleRow, "list" | "value">[]): { rules: number; exclusions: number } {
  const exclusions = rows.filter((r) => r.list !== "bashToolPatterns" && r.list !== "toolNamePatterns" && r.value.startsWith("!")).length;
  return { rules: rows.length - exclusions, exclusions };
}

/** One edit of the draft, applied with yaml's document API (comments and order kept). */
export type RuleEdit =
  | { op: "set"; list: RuleList; index: number; field: "value" | "reason" | "ask"; value: string | boolean }
  | { op: "add"; list: RuleList }
  | { op: "delete"; list: RuleList; index: number }
  | { op: "move"; list: RuleList; index: number; to: number }
  /** Apply the engine's quick fix of the draft's diagnostic number `diagnostic`. */
  | { op: "fix"; diagnostic: number }
  /** Throw the draft away and read the file again. */
  | { op: "revert" };

/** The engine diagnostics of the draft text, mapped back: per row (by list and index), and those
 *  that belong to no row (YAML syntax, unknown top-level keys). */
export interface RowDiagnostics {
  /** Per list, per row index: the diagnostics on that row. */
  rows: Record<RuleList, PanelDiagnostic[][]>;
  file: PanelDiagnostic[];
  /** True when there is an error anywhere: Save is refused. */
  hasErrors: boolean;
}

/** What a refusal or ask in the feed ended as, decided on the extension side (no text parsing here). */
export type FeedOutcome =
  | "refused" // a rule blocked it
  | "denied" // the human clicked Deny
  | "timed-out" // nobody answered in time: denied
  | "dismissed" // the dialog was dismissed: denied
  | "denied-again" // the same call was denied moments ago: denied without asking
  | "not-confirmed" // the ask could not be shown or failed: denied
  | "allowed" // the human clicked Allow
  | "asked" // still an ask (no answer recorded)
  | "let-through" // allowed by the rules (or an exception), shown because a snapshot was kept or could not be
  | "kernel-refused"; // it ran in our sandbox, and the kernel refused a path the rules protect (`kernel`)

export const FEED_OUTCOMES: readonly FeedOutcome[] = ["refused", "denied", "timed-out", "dismissed", "denied-again", "not-confirmed", "allowed", "asked", "let-through", "kernel-refused"];

export interface FeedEntry {
  /** Stable within a panel session: time + index. */
  id: string;
  time: string;
  agent: string;
  /** "Claude Code", "pi", … */
  agentLabel: string;
  tool: string;
  /** The tool as people read it, when it differs from `tool`: an MCP call's "server · tool". */
  toolLabel?: string;
  target: string;
  rule?: string;
  outcome: FeedOutcome;
  reason?: string;
  folder: string;
  /** The part of the target that matched, [start, end) into target (filled in when known). */
  match?: { start: number; end: number };
  /** 0-based line of the rule in the rules file, when the rule is still there. */
  ruleLine?: number;
  /** What a person reads first: the rule's own reason, else the reason without the model-facing wording. */
  headline: string;
  /** The snapshot kept before the call ran (Restore), or why none was. */
  snapshot?: { id?: string; holds?: string; notKept?: string; remote?: string; restored?: boolean };
  /** "Allow in this folder" wrote an exception for this call. */
  allowedHere?: boolean;
  /** What the last action on this entry did (shown on the entry, also as a toast). */
  note?: { text: string; ok: boolean };
  /** The call ran in our sandbox (bubblewrap): the kernel held the rules' paths, whatever it did. */
  sandboxed?: boolean;
  /** What the kernel refused inside the sandbox while the call ran: each path, read or write, the rule behind it. */
  kernel?: { path: string; kind: "read" | "write"; rule: string; reason?: string }[];
}

/** What a feed entry is, for the feed's sections: a rule refused it, a human was asked, or the
 *  rules let it run and a snapshot was kept (or could not be) first. */
export type FeedKind = "refused" | "asked" | "kept";
export const FEED_KINDS: readonly FeedKind[] = ["refused", "asked", "kept"];

export function kindOf(outcome: FeedOutcome): FeedKind {
  return outcome === "refused" || outcome === "kernel-refused" ? "refused" : outcome === "let-through" ? "kept" : "asked";
}

/** Agent-health lines about this machine, not an agent (the kernel sandbox): they never make an agent "wired". */
export const MACHINE_LINE_IDS: ReadonlySet<string> = new Set(["sandbox"]);

/** One line of the panel's agent health (agent-health.ts builds them from the doctor's checks). */
export interface AgentLine {
  /** The doctor check's id ("vscode", "qwen", "hooks" for Claude Code…), or "not-installed" for
   *  the one quiet line that names every agent Damage Control is not set up for. */
  id: string;
  state: "guarding" | "not-guarding" | "not-installed";
  /** The doctor's status of the check: "ok" only when nothing needs doing. */
  status: "ok" | "warn" | "fail";
  text: string;
  /** The doctor's own message (shown as the line's tooltip when `text` is shorter). */
  detail?: string;
  /** The command that fixes it, to copy into a terminal. */
  fix?: string;
  /** What the extension can safely do itself, as a button. */
  action?: "guardVsCodeAgent";
}

export interface ExplainStep {
  label: string;
  text: string;
}

export interface PanelStats {
  /** Refusals (blocks and denials) per rule text, most first. */
  perRule: { label: string; count: number }[];
  perAgent: { label: string; count: number }[];
  /** Decisions per bucket, oldest first: 12 × 5 min for the last hour, 24 × 1 h for the last day. */
  lastHour: number[];
  lastDay: number[];
}

export type ToPanel =
  | {
      type: "state";
      folders: PanelFolder[];
      endpoint: string | null;
      down: string | null;
      refusals: number;
      /** Managed settings switch our project hooks off (allowManagedHooksOnly), said in one line. */
      managedWarning?: string | null;
      /** The user's exceptions in force for each folder ("Allow in this folder" adds one), and where
       *  they are written (what `damage-control exceptions list` reads). */
      exceptions: { count: number; file: string };
      /** Whether "Allow in this folder" has a writer behind it (the layered rules' exceptions). */
      exceptionsAvailable: boolean;
      /** Each agent the doctor knows (VS Code's own with what only the extension sees: chat.useHooks,
       *  policy, trust): guarding, installed but not guarding, or not set up. Absent until checked. */
      agents?: AgentLine[];
    }
  | { type: "feed"; entries: FeedEntry[] }
  | { type: "decision"; entry: FeedEntry }
  | { type: "feedUpdate"; entry: FeedEntry }
  /** `quiet`: decisions in the pictures that the feed does not list (allowed, nothing destroyed). */
  | { type: "stats"; stats: PanelStats; hits: Record<string, number>; quiet: number }
  /** The draft of a folder's rules file as rows. `dirty`: differs from the file as loaded.
   *  `structural`: rows were added, removed, moved or rewritten (re-render the inputs); a plain
   *  field edit only updates diagnostics. `changedOnDisk`: the file changed outside the panel. */
  | {
      type: "draft";
      folder: string;
      file: string;
      exists: boolean;
      seq: number;
      rows: RuleRow[];
      diagnostics: RowDiagnostics;
      dirty: boolean;
      structural: boolean;
      /** Why the structured editor cannot edit this text (YAML syntax errors): use the editor. */
      readOnly?: string;
      changedOnDisk?: boolean;
    }
  | { type: "saved"; ok: boolean; message: string }
  | {
      type: "tryResult";
      action: string;
      rule: string | null;
      /** Which row decided: list + value as written. */
      ruleRef: { list: RuleList; value: string } | null;
      reason: string;
      /** The deciding rule's own reason, when it has one (bash patterns, tool names). */
      ruleReason?: string;
      match: { start: number; end: number; text: string } | null;
      input: string;
    }
  | { type: "explained"; id: string; steps: ExplainStep[] }
  | { type: "note"; text: string; ok: boolean };

export type FromPanel =
  | { type: "ready" }
  | { type: "edit"; seq: number; folder: string; edit: RuleEdit }
  | { type: "save"; folder: string }
  | { type: "openRules"; folder: string; line?: number }
  | { type: "loadRules"; folder: string }
  | { type: "try"; tool: string; value: string; folder: string }
  | { type: "explain"; id: string }
  | { type: "allowInFolder"; id: string }
  | { type: "copy"; text: string }
  /** Restore the snapshot of feed entry `id` (listed, then confirmed, on the extension side). */
  | { type: "restore"; id: string }
  /** Take back the last restore of feed entry `id`'s snapshot (the entry then offers Restore again). */
  | { type: "undoRestore"; id: string }
  /** Runs "Damage Control: Guard VS Code's Agent". */
  | { type: "guardVsCodeAgent" };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isEdit(v: unknown): v is RuleEdit {
  if (!isObj(v)) return false;
  const list = (RULE_LISTS as readonly unknown[]).includes(v.list);
  const idx = (k: string) => Number.isInteger(v[k]) && (v[k] as number) >= 0;
  switch (v.op) {
    case "set":
      return list && idx("index") && (v.field === "value" || v.field === "reason" ? typeof v.value === "string" : v.field === "ask" && typeof v.value === "boolean");
    case "add":
      return list;
    case "delete":
      return list && idx("index");
    case "move":
      return list && idx("index") && idx("to");
    case "fix":
      return idx("diagnostic");
    case "revert":
      return true;
    default:
      return false;
  }
}

/** Checks a message from the webview before it is trusted with anything. */
export function isFromPanel(m: unknown): m is FromPanel {
  if (!isObj(m)) return false;
  const str = (k: string) => typeof m[k] === "string";
  const int = (k: string) => Number.isInteger(m[k]);
  switch (m.type) {
    case "ready":
    case "guardVsCodeAgent":
      return true;
    case "edit":
      return int("seq") && str("folder") && isEdit(m.edit);
    case "save":
      return str("folder");
    case "openRules":
      return str("folder") && (m.line === undefined || int("line"));
    case "loadRules":
      return str("folder");
    case "try":
      return str("tool") && str("value") && str("folder");
    case "explain":
    case "allowInFolder":
    case "restore":
    case "undoRestore":
      return str("id");
    case "copy":
      return str("text");
    default:
      return false;
  }
}
