// `damage-control install gemini` / `uninstall gemini`: our BeforeTool hook in Gemini CLI's
// settings.json — <folder>/.gemini/settings.json, or ~/.gemini/settings.json with --user —
// merged into what is there (other keys, other hooks untouched) and removed exactly (only entries
// whose hook is named "damage-control").
import * as os from "node:os";
import * as path from "node:path";
import { installGroup, isObj, ourGroups, readSettings, uninstallGroups, type HookSlot } from "./hook-groups";

/** The `name` our hook entry carries: how uninstall and doctor recognise it. */
export const GEMINI_HOOK_NAME = "damage-control";
/** ms Gemini waits for the hook (its default is 60 000); the hook answers a refusal before this. */
export const GEMINI_HOOK_TIMEOUT_MS = 60_000;
/** Every tool: shell, file tools, MCP tools (Gemini matchers are regexes on the tool name). */
export const GEMINI_MATCHER = ".*";

export function geminiSettingsFile(scope: { folder: string; user: boolean }, env: NodeJS.ProcessEnv = process.env): string {
  return scope.user ? path.join(env.HOME || os.homedir(), ".gemini", "settings.json") : path.join(scope.folder, ".gemini", "settings.json");
}

const SLOT: HookSlot = { event: "BeforeTool", name: GEMINI_HOOK_NAME };
/**
 * After a shell call (measured 0.61.0: AfterTool gets the command as it ran and its output): what
 * the kernel refused inside our sandbox is shown in the feed. Its answer is always no opinion.
 */
const AFTER_SLOT: HookSlot = { event: "AfterTool", name: GEMINI_HOOK_NAME };
/** Only the shell tool runs in our sandbox. */
export const GEMINI_AFTER_MATCHER = "^run_shell_command$";

export function installGemini(file: string, command: string): { file: string; changed: boolean } {
  const before = installGroup(file, SLOT, { matcher: GEMINI_MATCHER, hooks: [{ name: GEMINI_HOOK_NAME, type: "command", command, timeout: GEMINI_HOOK_TIMEOUT_MS, description: "Damage Control: refuses what the rules refuse, asks what they ask" }] });
  const after = installGroup(file, AFTER_SLOT, { matcher: GEMINI_AFTER_MATCHER, hooks: [{ name: GEMINI_HOOK_NAME, type: "command", command, timeout: GEMINI_HOOK_TIMEOUT_MS, description: "Damage Control: shows what the sandbox's kernel refused (never refuses)" }] });
  return { file, changed: before.changed || after.changed };
}

export function uninstallGemini(file: string): { file: string; removed: number } {
  const before = uninstallGroups(file, SLOT);
  const after = uninstallGroups(file, AFTER_SLOT);
  return { file, removed: before.removed + after.removed };
}

export type GeminiStatus = { state: "not-installed" | "guarding"; file: string } | { state: "not-guarding"; file: string; why: string };

/** Ours present and in force, absent, or present in a form Gemini would not run. */
export function geminiStatus(file: string): GeminiStatus {
  const { settings, error } = readSettings(file);
  if (error !== undefined) return { state: "not-guarding", file, why: `it cannot be read (${error}): Gemini CLI runs no hook from it` };
  const groups = settings ? ourGroups(settings, SLOT) : [];
  if (!settings || groups.length === 0) return { state: "not-installed", file };
  if (isObj(settings.hooksConfig) && settings.hooksConfig.enabled === false) return { state: "not-guarding", file, why: "hooksConfig.enabled is false: Gemini CLI runs no hooks" };
  const disabled = isObj(settings.hooksConfig) && Array.isArray(settings.hooksConfig.disabled) && settings.hooksConfig.disabled.includes(GEMINI_HOOK_NAME);
  if (disabled) return { state: "not-guarding", file, why: `hooksConfig.disabled lists "${GEMINI_HOOK_NAME}"` };
  const g = groups[0];
  if (typeof g.matcher === "string" && g.matcher !== GEMINI_MATCHER) return { state: "not-guarding", file, why: `our hook's matcher was changed to ${JSON.stringify(g.matcher)}` };
  return { state: "guarding", file };
}
