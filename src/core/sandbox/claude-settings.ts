// Claude Code's settings scopes as the guard sees them on a decision (issue 34 §6): the managed
// file, the project's local and shared files, the user's. Read on the decision path, so each file
// is parsed again only when it changed (a stat per scope otherwise). A file that cannot be read
// or is not a JSON object is "not certain": the caller keeps the ask.
import * as fs from "node:fs";
import * as path from "node:path";
import type { ClaudeScope } from "../../engine/sandbox/claude-in-force";

/** Linux's managed settings (Claude Code's settings reference): above every other scope. */
export const CLAUDE_MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json";

interface Parsed {
  key: string;
  settings: Record<string, unknown> | undefined | null;
}
const parsed = new Map<string, Parsed>();

/** The file's object; undefined: no file; null: there but unreadable or not a JSON object. */
function readScope(file: string): Record<string, unknown> | undefined | null {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!st) return undefined;
  const key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const hit = parsed.get(file);
  if (hit && hit.key === key) return hit.settings;
  let settings: Record<string, unknown> | null;
  try {
    const text = fs.readFileSync(file, "utf8");
    const v = text.trim() === "" ? {} : (JSON.parse(text) as unknown);
    settings = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    settings = null;
  }
  if (parsed.size >= 64) parsed.clear();
  parsed.set(file, { key, settings });
  return settings;
}

/**
 * The scopes for a project folder, or undefined when one of them cannot be read. The user's folder
 * is CLAUDE_CONFIG_DIR or ~/.claude in the guard's environment (a Claude Code started with another
 * one is not seen: docs/sandbox.md says so).
 */
export function claudeScopes(folder: string, env: NodeJS.ProcessEnv, home: string, managed = CLAUDE_MANAGED_SETTINGS): ClaudeScope[] | undefined {
  const userDir = env.CLAUDE_CONFIG_DIR || path.join(home, ".claude");
  const files: [name: string, file: string, ours?: boolean][] = [
    ["managed settings", managed],
    [".claude/settings.local.json", path.join(folder, ".claude/settings.local.json"), true],
    [".claude/settings.json", path.join(folder, ".claude/settings.json")],
    ["user settings", path.join(userDir, "settings.json")],
  ];
  const scopes: ClaudeScope[] = [];
  for (const [name, file, ours] of files) {
    const settings = readScope(file);
    if (settings === null) return undefined;
    scopes.push({ name, settings, ...(ours && { ours }) });
  }
  return scopes;
}
