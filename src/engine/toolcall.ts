// One normalized view of a tool call for both agents.
// Claude Code sends `Bash {command}`, `Read/Write/Edit {file_path}` (absolute), `NotebookEdit
// {notebook_path}`, `Glob/Grep {pattern, path?}`; pi sends lowercase `bash {command}`,
// `read/write/edit/grep/find/ls {path}` with paths exactly as the model wrote them.
import { mcpName, type McpName } from "./mcp/name";
import { mcpTarget } from "./mcp/target";
import type { Access } from "./types";

export interface FileOp {
  /** As the agent wrote it; resolved later against cwd and home. */
  path: string;
  access: Access;
  /** The operation reaches everything below `path` (a search or listing of a folder). */
  recursive: boolean;
  /** A glob whose matches are touched (Glob/find), relative to `path`. */
  pattern?: string;
  /** An unknown tool whose name does not say what it does to the path (judged as asked-for). */
  unknownEffect?: boolean;
}

export type NormalizedCall =
  | { kind: "bash"; tool: string; command: string }
  | { kind: "files"; tool: string; ops: FileOp[] }
  /**
   * A tool with no command, path or file URL to judge: `noEffect` for the tools the per-agent
   * table names (TodoWrite, Task…: no opinion), otherwise unknown (DecideContext.unknownTools).
   */
  | { kind: "other"; tool: string; noEffect: boolean }
  /** PowerShell's command line (Claude Code's PowerShell tool, pi's powershell): src/engine/powershell/. */
  | { kind: "powershell"; tool: string; command: string }
  /** An MCP tool (recognised by its name alone: src/engine/mcp/name.ts), judged by its arguments. */
  | { kind: "mcp"; tool: string; mcp: McpName; input: unknown }
  /** A known tool whose input does not have the shape it must have: refused, never guessed. */
  | { kind: "invalid"; tool: string; problem: string };

export interface ToolCall {
  tool: string;
  input: unknown;
}

/** Lower-cased tool name → how its input touches the file system. */
const FILE_TOOLS: Record<string, { access: Access; keys: string[]; recursive?: boolean; pattern?: boolean; optionalPath?: boolean }> = {
  read: { access: "read", keys: ["file_path", "path"] },
  notebookread: { access: "read", keys: ["notebook_path", "file_path", "path"] },
  write: { access: "write", keys: ["file_path", "path"] },
  edit: { access: "write", keys: ["file_path", "path"] },
  multiedit: { access: "write", keys: ["file_path", "path"] },
  notebookedit: { access: "write", keys: ["notebook_path", "file_path", "path"] },
  grep: { access: "read", keys: ["path"], recursive: true, optionalPath: true },
  glob: { access: "list", keys: ["path"], recursive: true, pattern: true, optionalPath: true },
  find: { access: "list", keys: ["path"], recursive: true, pattern: true, optionalPath: true },
  ls: { access: "list", keys: ["path"], optionalPath: true },
};

/**
 * Tools that touch neither files nor the shell, per agent: no opinion. Lower-cased names.
 * Claude Code: planning, sub-agents, questions, web search; VS Code's agent: memory, todo lists,
 * sub-agents, reading diagnostics; pi has none beyond its file and bash tools.
 */
export const NO_EFFECT_TOOLS: Record<string, readonly string[]> = {
  claude: ["todowrite", "todoread", "task", "agent", "exitplanmode", "enterplanmode", "websearch", "askuserquestion", "bashoutput", "killshell", "killbash", "listmcpresourcestool", "skill", "slashcommand", "taskoutput", "taskstop"],
  vscode: ["memory", "runsubagent", "manage_todo_list", "todos", "think", "get_errors", "get_changed_files", "test_failure", "vscode_searchextensions_internal", "get_vscode_api", "open_simple_browser"],
  pi: [],
};
const NO_EFFECT = new Set(Object.values(NO_EFFECT_TOOLS).flat());

/** Keys that name a file in the input of a tool the engine has no vocabulary for. */
const PATH_KEYS = ["file_path", "filePath", "path", "notebook_path", "filename", "file", "target_file", "targetFile", "source", "destination"];

/**
 * The effect of an unknown tool on the path it names, read from the verb in its name
 * (`mcp__fs__read_file`, `delete_file`, `write_to_file`); undefined when the name says nothing.
 */
export function accessFromToolName(tool: string): Access | undefined {
  const words = tool.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z]+/);
  const has = (re: RegExp) => words.some((w) => re.test(w));
  if (has(/^(delete|remove|rm|unlink|trash|move|rename|mv|destroy|drop|purge)$/)) return "delete";
  if (has(/^(write|edit|create|save|put|update|replace|insert|append|patch|mkdir|upload|set|modify|overwrite)$/)) return "write";
  if (has(/^(read|get|view|open|cat|show|fetch|download|head|tail)$/)) return "read";
  if (has(/^(list|ls|search|find|grep|glob|stat|tree|info|exists)$/)) return "list";
  return undefined;
}

export function normalizeToolCall(call: ToolCall, agent: "claude" | "pi" | "cli" = "cli"): NormalizedCall {
  const tool = typeof call.tool === "string" ? call.tool : "";
  const name = tool.toLowerCase();
  const input = call.input;
  const isObject = typeof input === "object" && input !== null && !Array.isArray(input);
  const record = (isObject ? input : {}) as Record<string, unknown>;

  if (name === "bash" || name === "powershell") {
    if (!isObject || typeof record.command !== "string") {
      return { kind: "invalid", tool, problem: `a ${name} call needs a string \`command\`` };
    }
    return name === "bash" ? { kind: "bash", tool, command: record.command } : { kind: "powershell", tool, command: record.command };
  }

  // Own keys only: a tool named "__proto__" or "constructor" is no file tool.
  const spec = Object.hasOwn(FILE_TOOLS, name) ? FILE_TOOLS[name] : undefined;
  if (!spec) {
    const mcp = mcpName(tool);
    if (mcp) return { kind: "mcp", tool, mcp, input };
    return unknownTool(tool, name, isObject ? record : undefined);
  }
  if (!isObject) return { kind: "invalid", tool, problem: `a ${tool} call needs an object input` };

  const key = spec.keys.find((k) => record[k] !== undefined);
  const raw = key === undefined ? undefined : record[key];
  if (raw !== undefined && typeof raw !== "string") {
    return { kind: "invalid", tool, problem: `\`${key}\` must be a string` };
  }
  if (raw === undefined && !spec.optionalPath) {
    return { kind: "invalid", tool, problem: `a ${tool} call needs \`${spec.keys[0]}\`` };
  }
  // pi's tools strip one leading "@" (the model's file-mention syntax): `read @.env` reads `.env`.
  let path = raw ?? ".";
  if (agent !== "claude" && path.startsWith("@")) path = path.slice(1);
  if (path.trim() === "") path = ".";

  const op: FileOp = { path, access: spec.access, recursive: spec.recursive ?? false };
  const ops: FileOp[] = [op];
  if (spec.pattern && typeof record.pattern === "string") op.pattern = record.pattern;
  if (name === "grep" && typeof record.glob === "string") op.pattern = record.glob;
  return { kind: "files", tool, ops };
}

/**
 * A tool with no vocabulary entry is judged by the fields it carries: a `command` is a shell
 * line (PowerShell's is marked for its own analysis), a path key or a `file://` URL is a file
 * access whose kind comes from the tool's name (unknown: judged as the strongest, see decide).
 */
function unknownTool(tool: string, name: string, record: Record<string, unknown> | undefined): NormalizedCall {
  if (NO_EFFECT.has(name)) return { kind: "other", tool, noEffect: true };
  if (!record) return { kind: "other", tool, noEffect: false };
  if (typeof record.command === "string") {
    return name === "powershell" || name === "pwsh" ? { kind: "powershell", tool, command: record.command } : { kind: "bash", tool, command: record.command };
  }
  const ops: FileOp[] = [];
  const access = accessFromToolName(tool);
  for (const k of PATH_KEYS) {
    const v = record[k];
    if (typeof v === "string" && v.trim() !== "" && !/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) ops.push({ path: v, access: access ?? "write", recursive: false, ...(access === undefined && { unknownEffect: true }) });
  }
  for (const k of ["url", "uri", "href"]) {
    const v = record[k];
    if (typeof v === "string" && /^file:\/\//i.test(v)) ops.push({ path: v, access: "read", recursive: false });
  }
  if (ops.length) return { kind: "files", tool, ops };
  return { kind: "other", tool, noEffect: false };
}

/**
 * What a call is about, for people and the audit trail: the command, or the path.
 * Never the content being written (it may be a secret).
 */
export function describeTarget(call: ToolCall): string {
  const norm = normalizeToolCall(call);
  if (norm.kind === "bash" || norm.kind === "powershell") return norm.command;
  if (norm.kind === "mcp") return mcpTarget(norm.tool, norm.input);
  if (norm.kind === "files") {
    const op = norm.ops[0];
    return op.pattern ? `${op.path} (${op.pattern})` : op.path;
  }
  return "";
}
