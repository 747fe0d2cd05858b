// Shared vocabulary of the engine. Pure types: no I/O, no `vscode`.
import type { SandboxMode } from "./sandbox/policy-types";

export type Action = "allow" | "block" | "ask";

/** Who made the tool call. Only used for wording and the audit trail, never for the decision. */
export type Agent = "claude" | "pi" | "cli";

/** A zero-based position in a text, as editors and the LSP count it. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Offsets into a command string: [start, end). */
export interface Span {
  start: number;
  end: number;
}

export type RuleKind = "bashPattern" | "zeroAccess" | "readOnly" | "noDelete" | "toolName";

/**
 * Where a rule comes from, strongest first: the platform team's managed file, the user's own file,
 * the workspace's file, the embedded defaults (the floor). "policy" is a `--rules FILE` given on the
 * command line: the whole policy, no other layer.
 */
export type LayerName = "managed" | "user" | "workspace" | "default" | "policy";

export interface BashPatternRule {
  kind: "bashPattern";
  /** The layer the rule came from, once layers are merged. */
  layer?: LayerName;
  /** The regex source as written in the file. */
  pattern: string;
  /** Compiled once at load time. Never global or sticky: `test` must be stateless. */
  regex: RegExp;
  reason: string;
  ask: boolean;
  /**
   * An effect rule (`effect: destroy backups`): judges the remote effects the shell analysis finds
   * (`<effect> <target>`, `*` globs), not the command text. `pattern` then holds the effect as
   * written and `regex` never matches (docs/remote-effects.md).
   */
  effect?: string;
  /**
   * A stable name (`[a-z0-9-]`, unique in its file): what a layer names to drop the rule
   * (`disable: [id]`). Every embedded default has one; a user's rule may leave it out.
   */
  id?: string;
  /**
   * `regenerable`: the pattern does not judge a command whose every deleted path is regenerable
   * build output (node_modules, dist, build, target, .next, coverage, __pycache__, .turbo…) inside
   * the workspace, or a scratch folder below the temp dir, and none is or contains a protected
   * path (decide.ts, `regenerableOnly`).
   */
  unless?: "regenerable" | "throwaway" | "confined";
  /** Where the rule is written, when it came from a file. */
  range?: Range;
}

export interface PathRule {
  kind: "zeroAccess" | "readOnly" | "noDelete";
  /** The entry as written in the file (`.env`, `~/.ssh/`, `adws/adw_*.py`). */
  path: string;
  /** A stable name derived from the list and the path (`zero-access-env`, `no-delete-git`): see pathRuleId. */
  id?: string;
  range?: Range;
  /** Added by the guard itself (its own rules file and state), not written by the user. */
  implicit?: boolean;
  layer?: LayerName;
}

/**
 * An exception (`allow:` in a rules file): lifts what a rule of its own or a weaker layer would
 * refuse. A command exception is tested against each executed command like a bash pattern; a path
 * exception lifts read-only and no-delete entries for that path. Never lifts zero-access.
 */
export type Exception =
  | { kind: "command"; pattern: string; regex: RegExp; reason: string; folder?: string; range?: Range; layer?: LayerName }
  | { kind: "path"; path: string; reason: string; folder?: string; range?: Range; layer?: LayerName }
  /** A tool exception (`allow: {tool: "mcp__devdb__*"}`): lifts tool-name rules and the refusals of that tool's SQL and commands. */
  | { kind: "tool"; tool: string; matcher: RegExp; reason: string; folder?: string; range?: Range; layer?: LayerName };

// ── toolNamePatterns: rules about a tool by its name (MCP tools above all; src/engine/mcp/) ──

/** `toolNamePatterns:` entry: a glob on the tool's name (`mcp__github__merge_*`), refused or asked. */
export interface ToolNameRule {
  kind: "toolName";
  /** The glob as written. */
  tool: string;
  /** The glob compiled (case-insensitive, tested on the name and on its snake_case form). */
  matcher: RegExp;
  reason: string;
  ask: boolean;
  id?: string;
  /** `filtered`: not when the arguments narrow the call to some records or to files (src/engine/mcp/scope.ts). */
  unless?: "filtered";
  /** `total`: only when the arguments reach everything (an empty filter, `*`, all keys). */
  when?: "total";
  range?: Range;
  layer?: LayerName;
}

export type Rule = BashPatternRule | PathRule;

export interface RuleSet {
  bashToolPatterns: BashPatternRule[];
  zeroAccessPaths: PathRule[];
  readOnlyPaths: PathRule[];
  noDeletePaths: PathRule[];
  /** `toolNamePatterns:` (absent: none). */
  toolNamePatterns?: ToolNameRule[];
  /** `disable:` of this file: ids (or path entries) of weaker layers' rules it switches off. */
  disable?: string[];
  /** Where each disable entry is written. */
  disableRanges?: Record<string, Range>;
  /** `allow:` exceptions of this file (after a merge: of every layer that may loosen). */
  allow?: Exception[];
  /**
   * `!entry` in a path list: what that list does not protect although an entry of it covers it
   * (`!~/.ssh/known_hosts` under `~/.ssh/`). Only a non-recursive access of the exact path is
   * carved out; a recursive one still reaches the protected folder.
   */
  exceptions?: { zeroAccess: PathRule[]; readOnly: PathRule[]; noDelete: PathRule[] };
  /** `sandbox:` (absent: none written; the mode is then `auto`). See src/engine/sandbox/policy.ts. */
  sandbox?: SandboxSection;
}

/**
 * `sandbox:` in a rules file. After a merge: `mode` is the strictest any layer may set (an `off`
 * only from a layer that may loosen), the lists the union of the layers allowed to add them.
 */
export interface SandboxSection {
  mode?: SandboxMode;
  /**
   * Read-only entries that tools the agent runs must still update (`package-lock.json` by
   * `npm install`): the hook refuses an agent's own edit of them, the sandbox does not make them
   * unwritable. Every other read-only entry is unwritable inside the sandbox.
   */
  updatedByTools?: string[];
  /** Hosts added to a domain-filtering sandbox's allow list (Claude Code's, VS Code's). */
  allowedHosts?: string[];
  /** Hosts a domain-filtering sandbox refuses. */
  deniedHosts?: string[];
}

export type Severity = "error" | "warning" | "information";

export interface Diagnostic {
  severity: Severity;
  message: string;
  range: Range;
  /** Stable machine-readable kind, used by quick fixes. */
  code: DiagnosticCode;
  /** A concrete repair, when one is obvious (quick fix). */
  fix?: { title: string; range: Range; newText: string };
}

export type DiagnosticCode =
  | "yaml-syntax"
  | "unknown-key"
  | "wrong-type"
  | "invalid-regex"
  | "slow-regex"
  | "missing-reason"
  | "invalid-ask"
  | "invalid-flags"
  | "invalid-id"
  | "duplicate-id"
  | "duplicate"
  | "unreachable"
  | "empty-path"
  | "unknown-effect"
  | "invalid-id"
  | "duplicate-id"
  | "exception-unused"
  | "exception-zero-access"
  | "invalid-glob";

/** How a path is touched. `list` = directory listing or search; moves are a delete plus a write. */
export type Access = "read" | "write" | "delete" | "list";

/** Where the decision-relevant context comes from. `realpath` is injected by adapters (I/O). */
export interface DecideContext {
  /** Directory relative paths in the call are resolved against. */
  cwd: string;
  home: string;
  /** Directory that relative rule entries (`adws/adw_modules/`) are anchored to. Defaults to cwd. */
  root?: string;
  /** Resolves symlinks of an existing path; returns undefined when the path does not exist. */
  realpath?: (absolutePath: string) => string | undefined;
  /** What an unparseable command gets. Default "ask". */
  onParseError?: "ask" | "block";
  /** A file's text as it is on disk (undefined: missing). Injected by adapters (I/O); used for the guard's own settings files. */
  readText?: (absolutePath: string) => string | undefined;
  /**
   * A tool the engine has no vocabulary for and whose input carries no command, path or file URL
   * (and that no per-agent table names as effect-free). Default "no-opinion" (issue 14 §3).
   */
  unknownTools?: "ask" | "no-opinion";
  /** The system temp dir (scratch folders below it are regenerable). /tmp and /var/tmp always are. */
  tmpdir?: string;
}

/** The rule that produced a verdict, in a form that can be shown and logged. */
export interface RuleRef {
  kind: RuleKind;
  /** The pattern or the path entry as written. */
  text: string;
  /** The rule's stable id, when it has one. */
  id?: string;
  /** A bash pattern entry that names an effect (`destroy backups`) instead of a regex: `text` is the effect. */
  effect?: boolean;
  reason?: string;
  /** 1-based line in the rules file, when known. */
  line?: number;
  /** The layer the rule came from (managed, user, workspace, default, policy). */
  layer?: LayerName;
}

export interface Verdict {
  action: Action;
  /** Model-facing explanation; empty for a plain allow. */
  reason: string;
  rule?: RuleRef;
  /** The part of the command that matched, with offsets into the original command. */
  match?: Span & { text: string };
  /** An exception that lifted a refusal (the verdict is then the next strongest, often allow). */
  exception?: { text: string; reason: string; layer?: LayerName };
}
