// What an MCP call's arguments do where the tool runs them, read from their keys: SQL text the
// server runs, a command line (or argv) it runs, file paths it touches. Everything else is data
// the tool stores or shows (queries of a search, titles, bodies, messages, thoughts, file
// contents) and is never run. Secrets (password, token, apiKey…) are neither judged nor shown.
import { toolWords } from "./name";
import { noEffectMcpTool } from "./no-effect";
import { sameAsCommand } from "./same-command";
import { credentialEndpoint } from "../remote/metadata";

export type ArgKind = "sql" | "command" | "path";

export interface McpArg {
  kind: ArgKind;
  /** Where it stands in the input (`sql`, `files[1].path`). */
  key: string;
  /** Its own key (`path` for `files[1].path`): what people read beside it. */
  name: string;
  text: string;
}

/** Keys whose string is SQL the server runs. */
const SQL_KEYS = new Set(["sql", "statement", "statements", "sqlquery", "sqlstatement", "querysql", "rawsql", "ddl", "dml"]);
/** `query` is SQL on a database tool; on a search tool it is what is searched for. */
const MAYBE_SQL_KEYS = new Set(["query", "querytext", "q"]);
/** Keys whose string is a shell line (or whose array is argv). */
const COMMAND_KEYS = new Set(["command", "cmd", "script", "clicommand", "shellcommand", "commandline", "bash", "shell", "argv"]);
/** Keys whose string (or array of strings) names a file. */
const PATH_KEYS = new Set(["path", "paths", "file", "files", "filepath", "filepaths", "filename", "filenames", "targetfile", "sourcepath", "destinationpath", "source", "destination", "dir", "dirpath", "directory", "folder", "notebookpath", "absolutepath", "relativepath"]);
/** Keys whose value is never shown nor judged: it may be a secret. */
const SECRET_KEY = /pass(word|wd|phrase)?$|secret|token|api_?key|apikey|credential|private_?key|auth(orization)?$|cookie|session_?key/i;
/** A search, lookup or documentation tool: its `query` is data. */
const SEARCH_WORDS = new Set(["search", "find", "lookup", "grep", "docs", "doc", "documentation", "library", "web", "browser", "semantic", "similar", "recall", "retrieve", "ask", "answer", "chat"]);
/** A tool that types into a terminal or a running process: the text it sends is a command line (issue 36). */
const TERMINAL_WORDS = new Set(["terminal", "tmux", "pty", "tty", "console", "shell", "repl", "stdin", "keys", "keystrokes", "screen", "session", "process"]);
const TERMINAL_TEXT_KEYS = new Set(["text", "keys", "input", "data", "chars", "line", "content", "message"]);
/** SQL under any key (issue 36): a statement that changes or drops data, whatever the key is called. */
const SQL_STATEMENT = /^\s*(drop\s+(table|database|schema|keyspace|owned|collection|index|view)\b|truncate\b|delete\s+from\b|update\s+[\w."]+\s+set\b|alter\s+table\b)/i;
/** The first word of a statement that a database runs. */
const SQL_VERB = /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*\(?\s*(select|with|insert|update|delete|drop|truncate|alter|create|grant|revoke|merge|upsert|replace|call|exec|execute|do|vacuum|analyze|explain|show|set|begin|commit|rollback|copy|comment|reindex|cluster|attach|detach|pragma|use|rename|lock|unlock|load|optimize|refresh)\b/i;

/** Keys whose string is a URL the tool requests. */
const URL_KEYS = new Set(["url", "uri", "href", "link", "endpoint", "address"]);

const MAX_DEPTH = 6;
const MAX_ARGS = 200;

/** Lower case, no `_`/`-`: `file_path`, `filePath`, `file-path` are one key. */
function norm(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
}

/** POSIX-quotes one argv word, so the shell analysis reads it as one word. */
function quote(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) && !word.startsWith("~") ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");

/** The arguments of an MCP call that run or touch something, in input order. */
export function mcpArguments(tool: string, input: unknown, server = ""): McpArg[] {
  const words = [...toolWords(tool), ...toolWords(server)];
  const search = toolWords(tool).some((w) => SEARCH_WORDS.has(w));
  // SQL under any key, on a tool of a database or one that executes (never a title or a body elsewhere).
  const database = words.some((w) => /^(sql|query|queries|execute|exec|run|db|database|postgres|postgresql|pg|mysql|mariadb|sqlite|supabase|neon|duckdb|clickhouse|snowflake|bigquery|mssql|oracle|cockroach|cockroachdb|planetscale|turso|d1|statement|statements|migration|migrate)$/.test(w));
  const terminal = words.some((w) => TERMINAL_WORDS.has(w)) && words.some((w) => /^(send|write|type|input|run|exec|execute|keys|text|press|interact|stdin)$/.test(w));
  // A browser's script runs in the page, a memory's text is stored: neither is SQL nor a shell
  // line. Their paths still count (a file uploaded to a page is read from this machine).
  const dataOnly = noEffectMcpTool(tool);
  const out: McpArg[] = [];
  const walk = (value: unknown, where: string, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_ARGS || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${where}[${i}]`, depth + 1));
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(record)) {
      if (SECRET_KEY.test(key)) continue;
      const name = key;
      const k = norm(key);
      const at = where ? `${where}.${key}` : key;
      if (typeof v === "string") {
        if (v.trim() === "") continue;
        // A browser opening a local file reads it (issue 36), whatever else the tool is.
        if (dataOnly && (k === "url" || k === "uri") && /^file:\/\//i.test(v)) {
          out.push({ kind: "path", key: at, name, text: v });
          continue;
        }
        // A fetch of a cloud metadata service's credential path is `curl URL` (issue 36: one effect, one answer).
        if (URL_KEYS.has(k) && credentialEndpoint(v) !== undefined) {
          out.push({ kind: "command", key: at, name, text: `curl ${quote(v)}` });
          continue;
        }
        if (dataOnly && !PATH_KEYS.has(k)) continue;
        if (SQL_KEYS.has(k) || (MAYBE_SQL_KEYS.has(k) && !search && SQL_VERB.test(v)) || (database && !search && !dataOnly && SQL_STATEMENT.test(v))) out.push({ kind: "sql", key: at, name, text: v });
        else if (terminal && TERMINAL_TEXT_KEYS.has(k)) out.push({ kind: "command", key: at, name, text: v.replace(/\s+(Enter|C-m|KPEnter)\s*$/, "").replace(/\\n$|\n$/, "") });
        else if (COMMAND_KEYS.has(k)) out.push({ kind: "command", key: at, name, text: commandLine(v, record) });
        else if (PATH_KEYS.has(k) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) out.push({ kind: "path", key: at, name, text: v });
        else if ((k === "url" || k === "uri") && /^file:\/\//i.test(v)) out.push({ kind: "path", key: at, name, text: v });
        continue;
      }
      if (isStrings(v)) {
        if (dataOnly && !PATH_KEYS.has(k)) continue;
        if (COMMAND_KEYS.has(k)) {
          out.push({ kind: "command", key: at, name, text: v.map(quote).join(" ") });
          continue;
        }
        if (SQL_KEYS.has(k) || /^(queries|sqls|commands?sql|batch)$/.test(k) || (database && !search && !dataOnly && v.some((s) => SQL_STATEMENT.test(s)))) {
          v.forEach((s, i) => out.push({ kind: "sql", key: `${at}[${i}]`, name, text: s }));
          continue;
        }
        if (PATH_KEYS.has(k)) {
          v.forEach((s, i) => s.trim() !== "" && out.push({ kind: "path", key: `${at}[${i}]`, name, text: s }));
          continue;
        }
        // `args` beside a `command`: already joined into that command line.
        continue;
      }
      walk(v, at, depth + 1);
    }
  };
  walk(input, "", 0);
  const same = sameAsCommand(words, input);
  if (same) out.push({ kind: "command", key: same.key, name: same.key, text: same.text });
  return out;
}

/** A `command` with its `args` array beside it (`{command: "rm", args: ["-rf", "~"]}`) is one command line. */
function commandLine(command: string, record: Record<string, unknown>): string {
  const args = record.args ?? record.arguments;
  return isStrings(args) ? [command, ...args.map(quote)].join(" ") : command;
}

/** The arguments as people read them, one `name: value` line each (the text verdict spans point into). */
export function argumentsText(args: readonly McpArg[]): string {
  return args.map((a) => `${a.name}: ${a.text}`).join("\n");
}

/** Is `name` a key whose value this module reads (so a line of argumentsText starts with it)? */
export function isArgumentKey(name: string): boolean {
  const k = norm(name);
  return SQL_KEYS.has(k) || MAYBE_SQL_KEYS.has(k) || COMMAND_KEYS.has(k) || PATH_KEYS.has(k) || k === "url" || k === "uri";
}
