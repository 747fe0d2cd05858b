// Hook settings in the shape Gemini CLI and Qwen Code share — `hooks: {<Event>: [{matcher, hooks:
// [{name, type, command, …}]}]}` in a JSON settings file: our group is the one whose hook carries
// our name; install puts it first (a refusal is decided before any other hook of the user's runs)
// and keeps every other key and hook; uninstall removes exactly ours, and the file when nothing
// else is left in it.
import * as fs from "node:fs";
import { readJsonObject, writeJsonIfChanged } from "./json-file";

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Which event list holds our group, and the name our hook entry carries. */
export interface HookSlot {
  event: string;
  name: string;
}

function isOurs(group: unknown, slot: HookSlot): boolean {
  return isObj(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isObj(h) && h.name === slot.name);
}

/** Our groups in the settings (normally one). */
export function ourGroups(settings: Obj, slot: HookSlot): Obj[] {
  const list = isObj(settings.hooks) ? settings.hooks[slot.event] : undefined;
  return Array.isArray(list) ? (list.filter((g) => isOurs(g, slot)) as Obj[]) : [];
}

/** Our hook entry inside our group. */
export function ourHook(group: Obj, slot: HookSlot): Obj {
  return (group.hooks as Obj[]).find((h) => isObj(h) && h.name === slot.name)!;
}

export function withoutOurGroups(settings: Obj, slot: HookSlot): Obj {
  if (!isObj(settings.hooks) || !Array.isArray(settings.hooks[slot.event])) return settings;
  const rest = (settings.hooks[slot.event] as unknown[]).filter((g) => !isOurs(g, slot));
  const hooks: Obj = { ...settings.hooks, [slot.event]: rest };
  if (rest.length === 0) delete hooks[slot.event];
  const next: Obj = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

export function withOurGroup(settings: Obj, slot: HookSlot, group: Obj): Obj {
  const base = withoutOurGroups(settings, slot);
  if (base.hooks !== undefined && !isObj(base.hooks)) throw new Error("its `hooks` is not an object");
  const hooks = (base.hooks ?? {}) as Obj;
  const list = hooks[slot.event];
  if (list !== undefined && !Array.isArray(list)) throw new Error(`its \`hooks.${slot.event}\` is not an array`);
  return { ...base, hooks: { ...hooks, [slot.event]: [group, ...((list as unknown[]) ?? [])] } };
}

export function installGroup(file: string, slot: HookSlot, group: Obj): { file: string; changed: boolean } {
  try {
    return { file, changed: writeJsonIfChanged(file, withOurGroup(readJsonObject(file), slot, group)) };
  } catch (e) {
    throw new Error(`cannot add the Damage Control hook to ${file}: ${(e as Error).message}`);
  }
}

export function uninstallGroups(file: string, slot: HookSlot): { file: string; removed: number } {
  if (!fs.existsSync(file)) return { file, removed: 0 };
  const settings = readJsonObject(file);
  const removed = ourGroups(settings, slot).length;
  if (removed === 0) return { file, removed: 0 };
  const next = withoutOurGroups(settings, slot);
  if (Object.keys(next).length === 0) fs.rmSync(file);
  else writeJsonIfChanged(file, next);
  return { file, removed };
}

/** The settings as the agent would read them, or why it cannot (it then runs no hook from them). */
export function readSettings(file: string): { settings?: Obj; error?: string } {
  try {
    if (!fs.existsSync(file)) return {};
    return { settings: readJsonObject(file) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
