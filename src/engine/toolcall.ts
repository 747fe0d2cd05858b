// One normalized view of a tool call for both agents.
// Claude Code sends `Bash {command}`, `Read/Write/Edit {file_path}` (absolute), `NotebookEdit
// {notebook_path}`, `Glob/Grep {pattern, path?}`; pi sends lowercase `bash {command}`,
// `read/write/edit/grep/find/ls {path}` with paths exactly as the model wrote them.
import type { Access } from "./types";

export interface FileOp {
  /** As the agent wrote it; resolved later against cwd and home. */
  path: string;
  access: Access;
  /** The operation reaches everything below `path` (a search or listing of a folder). */
  recursive: boolean;
  /** A glob whose matches are touched (Glob/find), relative to `path`. */
  pattern?: string;
}

export type NormalizedCall =
  /** A shell command line; `shell` says whose syntax it is in (Claude Code's PowerShell tool). */
  | { kind: "bash"; tool: string; command: string; shell: "bash" | "powershell" }
  | { kind: "files"; tool: string; ops: FileOp[] }
  /** A tool Damage Control has no rules for (WebFetch, Task, MCP tools…): no opinion. */
  | { kind: "other"; tool: string }
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
    return { kind: "bash", tool, command: record.command, shell: name === "bash" ? "bash" : "powershell" };
  }

  // Own keys only: a tool named "__proto__" or "constructor" is no file tool.
  const spec = Object.hasOwn(FILE_TOOLS, name) ? FILE_TOOLS[name] : undefined;
  if (!spec) return { kind: "other", tool };
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
 * What a call is about, for people and the audit trail: the command, or the path.
 * Never the content being written (it may be a secret).
 */
export function describeTarget(call: ToolCall): string {
  const norm = normalizeToolCall(call);
  if (norm.kind === "bash") return norm.command;
  if (norm.kind === "files") {
    const op = norm.ops[0];
    return op.pattern ? `${op.path} (${op.pattern})` : op.path;
  }
  return "";
}
