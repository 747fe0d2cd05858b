// `damage-control install qwen` / `uninstall qwen`: our PreToolUse command hook in Qwen Code's
// USER settings, ~/.qwen/settings.json (project .qwen/settings.json hooks load only in a trusted
// folder, so a project install could be skipped without a word). Merged into what is there (other
// keys, other hooks untouched) and removed exactly (only entries whose hook is named ours).
// The command is the launcher: every failure of it is an answer or exit 2, both refusals in Qwen.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readJsonObject, writeJsonIfChanged } from "./json-file";

/** The `name` our hook entry carries: how uninstall and doctor recognise it. */
export const QWEN_HOOK_NAME = "damage-control";
/** Seconds Qwen waits for the hook: the launcher's own deadline (ask timeout + 10 s) fits inside. */
export const QWEN_HOOK_TIMEOUT_S = 60;
/** Every tool: shell, file tools, MCP tools. */
export const QWEN_MATCHER = "*";

export function qwenSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.HOME || os.homedir(), ".qwen", "settings.json");
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function isOurs(group: unknown): boolean {
  return isObj(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isObj(h) && h.name === QWEN_HOOK_NAME);
}

export function withoutOurQwenHooks(settings: Obj): Obj {
  if (!isObj(settings.hooks) || !Array.isArray(settings.hooks.PreToolUse)) return settings;
  const pre = settings.hooks.PreToolUse.filter((g) => !isOurs(g));
  const hooks: Obj = { ...settings.hooks, PreToolUse: pre };
  if (pre.length === 0) delete hooks.PreToolUse;
  const next: Obj = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

export function withOurQwenHook(settings: Obj, command: string): Obj {
  const base = withoutOurQwenHooks(settings);
  if (base.hooks !== undefined && !isObj(base.hooks)) throw new Error("its `hooks` is not an object");
  const hooks = (base.hooks ?? {}) as Obj;
  if (hooks.PreToolUse !== undefined && !Array.isArray(hooks.PreToolUse)) throw new Error("its `hooks.PreToolUse` is not an array");
  const ours = { matcher: QWEN_MATCHER, hooks: [{ name: QWEN_HOOK_NAME, type: "command", command, timeout: QWEN_HOOK_TIMEOUT_S }] };
  // First, so a refusal is decided before any other hook of the user's runs.
  return { ...base, hooks: { ...hooks, PreToolUse: [ours, ...((hooks.PreToolUse as unknown[]) ?? [])] } };
}

export function installQwen(file: string, command: string): { file: string; changed: boolean } {
  try {
    return { file, changed: writeJsonIfChanged(file, withOurQwenHook(readJsonObject(file), command)) };
  } catch (e) {
    throw new Error(`cannot add the Damage Control hook to ${file}: ${(e as Error).message}`);
  }
}

export function uninstallQwen(file: string): { file: string; removed: number } {
  if (!fs.existsSync(file)) return { file, removed: 0 };
  const settings = readJsonObject(file);
  const removed = isObj(settings.hooks) && Array.isArray(settings.hooks.PreToolUse) ? settings.hooks.PreToolUse.filter(isOurs).length : 0;
  if (removed === 0) return { file, removed: 0 };
  const next = withoutOurQwenHooks(settings);
  if (Object.keys(next).length === 0) fs.rmSync(file);
  else writeJsonIfChanged(file, next);
  return { file, removed };
}

export type QwenStatus = { state: "not-installed" | "guarding"; file: string } | { state: "not-guarding"; file: string; why: string };

/** Ours present and in force, absent, or present in a form Qwen would not run. */
export function qwenStatus(file: string, launcherExists: (command: string) => boolean): QwenStatus {
  let settings: Obj;
  try {
    if (!fs.existsSync(file)) return { state: "not-installed", file };
    settings = readJsonObject(file);
  } catch (e) {
    return { state: "not-guarding", file, why: `it cannot be read (${(e as Error).message}): Qwen Code runs no hook from it` };
  }
  const groups = isObj(settings.hooks) && Array.isArray(settings.hooks.PreToolUse) ? settings.hooks.PreToolUse.filter(isOurs) : [];
  if (groups.length === 0) return { state: "not-installed", file };
  if (settings.disableAllHooks === true) return { state: "not-guarding", file, why: "disableAllHooks is true: Qwen Code runs no hooks" };
  const g = groups[0] as Obj;
  if (g.matcher !== QWEN_MATCHER) return { state: "not-guarding", file, why: `our hook's matcher was changed to ${JSON.stringify(g.matcher)}` };
  const hook = (g.hooks as Obj[]).find((h) => isObj(h) && h.name === QWEN_HOOK_NAME)!;
  if (typeof hook.command !== "string" || !launcherExists(hook.command)) return { state: "not-guarding", file, why: `its command ${JSON.stringify(hook.command)} is missing (reinstall: damage-control install qwen)` };
  return { state: "guarding", file };
}
