// `damage-control install gemini` / `uninstall gemini`: our BeforeTool hook in Gemini CLI's
// settings.json — <folder>/.gemini/settings.json, or ~/.gemini/settings.json with --user —
// merged into what is there (other keys, other hooks untouched) and removed exactly (only entries
// whose hook is named "damage-control").
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readJsonObject, writeJsonIfChanged } from "./json-file";

/** The `name` our hook entry carries: how uninstall and doctor recognise it. */
export const GEMINI_HOOK_NAME = "damage-control";
/** ms Gemini waits for the hook (its default is 60 000); the hook answers a refusal before this. */
export const GEMINI_HOOK_TIMEOUT_MS = 60_000;
/** Every tool: shell, file tools, MCP tools (Gemini matchers are regexes on the tool name). */
export const GEMINI_MATCHER = ".*";

export function geminiSettingsFile(scope: { folder: string; user: boolean }, env: NodeJS.ProcessEnv = process.env): string {
  return scope.user ? path.join(env.HOME || os.homedir(), ".gemini", "settings.json") : path.join(scope.folder, ".gemini", "settings.json");
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function isOurs(group: unknown): boolean {
  return isObj(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isObj(h) && h.name === GEMINI_HOOK_NAME);
}

export function withoutOurHooks(settings: Obj): Obj {
  if (!isObj(settings.hooks) || !Array.isArray(settings.hooks.BeforeTool)) return settings;
  const before = settings.hooks.BeforeTool.filter((g) => !isOurs(g));
  const hooks: Obj = { ...settings.hooks, BeforeTool: before };
  if (before.length === 0) delete hooks.BeforeTool;
  const next: Obj = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

export function withOurHook(settings: Obj, command: string): Obj {
  const base = withoutOurHooks(settings);
  if (base.hooks !== undefined && !isObj(base.hooks)) throw new Error("its `hooks` is not an object");
  const hooks = (base.hooks ?? {}) as Obj;
  if (hooks.BeforeTool !== undefined && !Array.isArray(hooks.BeforeTool)) throw new Error("its `hooks.BeforeTool` is not an array");
  const ours = { matcher: GEMINI_MATCHER, hooks: [{ name: GEMINI_HOOK_NAME, type: "command", command, timeout: GEMINI_HOOK_TIMEOUT_MS, description: "Damage Control: refuses what the rules refuse, asks what they ask" }] };
  // First, so a refusal is decided before any other hook of the user's runs.
  return { ...base, hooks: { ...hooks, BeforeTool: [ours, ...((hooks.BeforeTool as unknown[]) ?? [])] } };
}

export function installGemini(file: string, command: string): { file: string; changed: boolean } {
  let settings: Obj;
  try {
    settings = readJsonObject(file);
    return { file, changed: writeJsonIfChanged(file, withOurHook(settings, command)) };
  } catch (e) {
    throw new Error(`cannot add the Damage Control hook to ${file}: ${(e as Error).message}`);
  }
}

export function uninstallGemini(file: string): { file: string; removed: number } {
  if (!fs.existsSync(file)) return { file, removed: 0 };
  const settings = readJsonObject(file);
  const before = isObj(settings.hooks) && Array.isArray(settings.hooks.BeforeTool) ? settings.hooks.BeforeTool.filter(isOurs).length : 0;
  if (before === 0) return { file, removed: 0 };
  const next = withoutOurHooks(settings);
  if (Object.keys(next).length === 0) fs.rmSync(file);
  else writeJsonIfChanged(file, next);
  return { file, removed: before };
}

export type GeminiStatus = { state: "not-installed" | "guarding"; file: string } | { state: "not-guarding"; file: string; why: string };

/** Ours present and in force, absent, or present in a form Gemini would not run. */
export function geminiStatus(file: string): GeminiStatus {
  let settings: Obj;
  try {
    if (!fs.existsSync(file)) return { state: "not-installed", file };
    settings = readJsonObject(file);
  } catch (e) {
    return { state: "not-guarding", file, why: `it cannot be read (${(e as Error).message}): Gemini CLI runs no hook from it` };
  }
  const groups = isObj(settings.hooks) && Array.isArray(settings.hooks.BeforeTool) ? settings.hooks.BeforeTool.filter(isOurs) : [];
  if (groups.length === 0) return { state: "not-installed", file };
  if (isObj(settings.hooksConfig) && settings.hooksConfig.enabled === false) return { state: "not-guarding", file, why: "hooksConfig.enabled is false: Gemini CLI runs no hooks" };
  const disabled = isObj(settings.hooksConfig) && Array.isArray(settings.hooksConfig.disabled) && settings.hooksConfig.disabled.includes(GEMINI_HOOK_NAME);
  if (disabled) return { state: "not-guarding", file, why: `hooksConfig.disabled lists "${GEMINI_HOOK_NAME}"` };
  const g = groups[0] as Obj;
  if (typeof g.matcher === "string" && g.matcher !== GEMINI_MATCHER) return { state: "not-guarding", file, why: `our hook's matcher was changed to ${JSON.stringify(g.matcher)}` };
  return { state: "guarding", file };
}
