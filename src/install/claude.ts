// Installing and removing Damage Control's hooks in <folder>/.claude/settings.local.json.
// HTTP hooks with onFailure:"block" for Claude Code builds that honour it; for older builds
// (which fail open on a dead HTTP endpoint) a command hook that decides locally when the
// endpoint cannot be reached. Other keys and other hooks in the file are left untouched.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { addOurHooks, chooseMode, eventsFor, listOurHooks, removeOurHooks, type HookMode } from "../engine/claude-settings";
import type { Posture } from "../engine/events";
import { readJsonObject, writeJsonIfChanged } from "./json-file";
import { parseVersion } from "../engine/version";
import { RulesStore } from "../core/rules-store";
import { removeClaudeSandbox, withClaudeSandbox, type ClaudeSandboxResult } from "./claude-sandbox";

export const CLAUDE_SETTINGS = ".claude/settings.local.json";

export interface ClaudeInstallResult {
  file: string;
  mode: HookMode["kind"];
  events: string[];
  version?: string;
  changed: boolean;
  /** Claude Code's own sandbox, written from the rules in force (docs/sandbox.md). */
  sandbox: ClaudeSandboxResult;
}

/**
 * `claude --version` → "2.1.332", or undefined when there is no claude to ask. Asynchronous: it
 * may take seconds, and the VS Code extension host must never wait on it.
 */
export function detectClaudeVersion(bin = process.env.DAMAGE_CONTROL_CLAUDE_BIN || "claude"): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(bin, ["--version"], { encoding: "utf8", timeout: 15_000 }, (err, stdout) => resolve(err || !stdout ? undefined : parseVersion(stdout)));
    child.stdin?.end();
  });
}

export function settingsFile(folder: string): string {
  return path.join(folder, CLAUDE_SETTINGS);
}

export interface InstallClaudeOptions {
  folder: string;
  /** Endpoint base URL, e.g. http://127.0.0.1:42345 */
  url: string;
  /** Shell command line of the command hook (`… hook claude`), for old Claude Code builds. */
  hookCommand: string;
  /** Claude Code version (detectClaudeVersion); undefined or "" means unknown (assume current). */
  version?: string;
  /** governed also registers PostToolUse and the state-changing lifecycle events. */
  posture?: Posture;
  /** The endpoint's token, written into the HTTP hook's header (works without DAMAGE_CONTROL_TOKEN). */
  token?: string;
}

export function installClaude(o: InstallClaudeOptions): ClaudeInstallResult {
  const version = o.version || undefined;
  const chosen = chooseMode(version, o.url, o.hookCommand);
  const mode: HookMode = chosen.kind === "http" && o.token ? { ...chosen, token: o.token } : chosen;
  const events = eventsFor(version, o.posture);
  const file = settingsFile(o.folder);
  // The sandbox beside the hooks, from the same rules the endpoint decides with; one write for both.
  const sandbox = withClaudeSandbox(o.folder, addOurHooks(readJsonObject(file), events, mode), new RulesStore(o.folder).current().rules);
  sandbox.commit();
  const changed = writeJsonIfChanged(file, sandbox.settings);
  return { file, mode: mode.kind, events, ...(version && { version }), changed, sandbox: { ...sandbox.result, changed } };
}

export function uninstallClaude(folder: string): { file: string; removed: number } {
  const file = settingsFile(folder);
  removeClaudeSandbox(folder);
  if (!fs.existsSync(file)) return { file, removed: 0 };
  const settings = readJsonObject(file);
  const removed = listOurHooks(settings).length;
  if (removed === 0) return { file, removed };
  const next = removeOurHooks(settings);
  if (Object.keys(next).length === 0) fs.rmSync(file);
  else writeJsonIfChanged(file, next);
  return { file, removed };
}

/** After the endpoint had to move to another port (or the token changed): point our HTTP hooks at it. */
export function refreshClaudeHooks(folder: string, url: string, token?: string): boolean {
  const file = settingsFile(folder);
  let settings: Record<string, unknown>;
  try {
    settings = readJsonObject(file);
  } catch {
    return false;
  }
  const ours = listOurHooks(settings);
  const http = ours.filter((o) => o.hook.type === "http");
  // Hooks that carry the token keep carrying it (the current one); env-var hooks stay env-var hooks.
  const literal = http.some((o) => !String((o.hook.headers as Record<string, unknown> | undefined)?.Authorization ?? "").includes("$"));
  const want = literal && token ? `Bearer ${token}` : undefined;
  const current = (o: (typeof http)[number]) => o.hook.url === `${url}/claude/hook` && (!want || (o.hook.headers as Record<string, unknown> | undefined)?.Authorization === want);
  if (http.length === 0 || http.every(current)) return false;
  const events = [...new Set(ours.map((o) => o.event))];
  return writeJsonIfChanged(file, addOurHooks(settings, events, { kind: "http", url, ...(want && { token }) }));
}
