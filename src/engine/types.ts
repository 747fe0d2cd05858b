// Shared vocabulary of the engine. Pure types: no I/O, no `vscode`.

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

export type RuleKind = "bashPattern" | "zeroAccess" | "readOnly" | "noDelete";

export interface BashPatternRule {
  kind: "bashPattern";
  /** The regex source as written in the file. */
  pattern: string;
  /** Compiled once at load time. Never global or sticky: `test` must be stateless. */
  regex: RegExp;
  reason: string;
  ask: boolean;
  /**
   * `regenerable`: the pattern does not judge a command whose every deleted path is regenerable
   * build output (node_modules, dist, build, target, .next, coverage, __pycache__, .turbo…) inside
   * the workspace, or a scratch folder below the temp dir, and none is or contains a protected
   * path (decide.ts, `regenerableOnly`).
   */
  unless?: "regenerable";
  /** Where the rule is written, when it came from a file. */
  range?: Range;
}

export interface PathRule {
  kind: "zeroAccess" | "readOnly" | "noDelete";
  /** The entry as written in the file (`.env`, `~/.ssh/`, `adws/adw_*.py`). */
  path: string;
  range?: Range;
  /** Added by the guard itself (its own rules file and state), not written by the user. */
  implicit?: boolean;
}

export type Rule = BashPatternRule | PathRule;

export interface RuleSet {
  bashToolPatterns: BashPatternRule[];
  zeroAccessPaths: PathRule[];
  readOnlyPaths: PathRule[];
  noDeletePaths: PathRule[];
  /**
   * `!entry` in a path list: what that list does not protect although an entry of it covers it
   * (`!~/.ssh/known_hosts` under `~/.ssh/`). Only a non-recursive access of the exact path is
   * carved out; a recursive one still reaches the protected folder.
   */
  exceptions?: { zeroAccess: PathRule[]; readOnly: PathRule[]; noDelete: PathRule[] };
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
  | "duplicate"
  | "unreachable"
  | "empty-path";

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
  reason?: string;
  /** 1-based line in the rules file, when known. */
  line?: number;
}

export interface Verdict {
  action: Action;
  /** Model-facing explanation; empty for a plain allow. */
  reason: string;
  rule?: RuleRef;
  /** The part of the command that matched, with offsets into the original command. */
  match?: Span & { text: string };
}
