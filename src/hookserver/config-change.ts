// Tamper protection for Claude Code's ConfigChange event: a settings change during a session is
// refused when it would switch the guard off — drop Damage Control's hooks from a settings file
// that had them, or set disableAllHooks. Policy (managed) settings cannot be refused.
import * as fs from "node:fs";
import { blockReason } from "../engine/reason";
import type { Verdict } from "../engine/types";
import { listOurHooks } from "../install/claude-settings";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The settings after the change: from the payload, else read from the changed file. */
function newConfigOf(p: Json): Json | undefined {
  for (const key of ["new_config", "newConfig", "config", "settings"]) if (isObject(p[key])) return p[key] as Json;
  const file = typeof p.file_path === "string" ? p.file_path : undefined;
  if (!file || !file.endsWith(".json")) return undefined;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The settings file a ConfigChange source stands for, in the guarded folder. */
function settingsFileOf(source: unknown, folder: string | undefined): string | undefined {
  if (!folder) return undefined;
  if (source === "local_settings") return `${folder}/.claude/settings.local.json`;
  if (source === "project_settings") return `${folder}/.claude/settings.json`;
  return undefined;
}

/**
 * `hadOurHooks(file)` tells whether our hooks were in that settings file before the change
 * (the guard remembers what it saw). Returns a refusal, or undefined for no opinion.
 */
export function judgeConfigChange(payload: Json, hadOurHooks: (file: string | undefined) => boolean, folder?: string): Verdict | undefined {
  if (payload.source === "policy_settings" || payload.source === "skills") return undefined;
  const next = newConfigOf(payload);
  if (!next) return undefined;
  if (next.disableAllHooks === true) {
    return { action: "block", reason: blockReason("this settings change sets disableAllHooks, which would switch off Damage Control's hooks") };
  }
  const previous = isObject(payload.previous_config) ? (payload.previous_config as Json) : undefined;
  const file = typeof payload.file_path === "string" ? payload.file_path : settingsFileOf(payload.source, folder);
  const before = previous ? listOurHooks(previous).length > 0 : file !== undefined && hadOurHooks(file);
  if (before && listOurHooks(next).length === 0) {
    return { action: "block", reason: blockReason(`this settings change removes Damage Control's hooks${file ? ` from ${file}` : ""}`) };
  }
  return undefined;
}

/** Which Claude Code settings files of the guarded folders hold our hooks, re-read when they change. */
export class OurHooksSnapshot {
  private readonly seen = new Map<string, { mtimeMs: number; ours: boolean }>();
  private lastRefresh = 0;

  constructor(private readonly folders: string[]) {
    this.refresh(true);
  }

  /** Cheap enough for the hot path: at most one stat per file every two seconds. */
  refresh(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastRefresh < 2000) return;
    this.lastRefresh = now;
    for (const folder of this.folders) {
      for (const name of ["settings.local.json", "settings.json"]) {
        const file = `${folder}/.claude/${name}`;
        let mtimeMs: number;
        try {
          mtimeMs = fs.statSync(file).mtimeMs;
        } catch {
          this.seen.delete(file);
          continue;
        }
        if (this.seen.get(file)?.mtimeMs === mtimeMs) continue;
        let ours = false;
        try {
          const parsed = JSON.parse(fs.readFileSync(file, "utf8"));
          ours = isObject(parsed) && listOurHooks(parsed).length > 0;
        } catch {
          /* unreadable: treat as not ours */
        }
        this.seen.set(file, { mtimeMs, ours });
      }
    }
  }

  /** Did this file (or, when unknown, any guarded settings file) hold our hooks before the change? */
  had(file: string | undefined): boolean {
    if (file) return this.seen.get(file)?.ours ?? false;
    return [...this.seen.values()].some((v) => v.ours);
  }

  /** After a change was allowed, remember the file as it is now. */
  forget(file: string | undefined): void {
    if (file) this.seen.delete(file);
    this.lastRefresh = 0;
  }
}
