// Tamper protection for Claude Code's ConfigChange event: a settings change during a session is
// refused when it would switch the guard off — drop Damage Control's hooks from a settings file
// that had them, or set disableAllHooks. Policy (managed) settings cannot be refused.
// Pure: the core gathers the facts (the changed file's new content, what it held before).
import { listOurHooks } from "./claude-settings";
import { blockReason } from "./reason";
import type { Verdict } from "./types";
import { isObject, str, type Json } from "./agents/types";

export interface ConfigChangeFacts {
  source?: string;
  /** The settings file that changed: the payload's file_path, else the file its source stands for. */
  file?: string;
  /** The settings before the change, when the payload carries them. */
  previous?: Json;
  /** The settings after the change: from the payload, else read from the changed file. */
  next?: Json;
  /** The guard saw our hooks in `file` before the change (used when `previous` is absent). */
  hadOurHooks: boolean;
}

/** The settings after the change when the payload carries them. */
export function newConfigInPayload(p: Json): Json | undefined {
  for (const key of ["new_config", "newConfig", "config", "settings"]) if (isObject(p[key])) return p[key] as Json;
  return undefined;
}

/** The settings file a ConfigChange is about, in the guarded folder. */
export function changedSettingsFile(p: Json, folder: string | undefined): string | undefined {
  const file = str(p.file_path);
  if (file) return file;
  if (!folder) return undefined;
  if (p.source === "local_settings") return `${folder}/.claude/settings.local.json`;
  if (p.source === "project_settings") return `${folder}/.claude/settings.json`;
  return undefined;
}

/** A refusal, or undefined for no opinion. */
export function judgeConfigChange(f: ConfigChangeFacts): Verdict | undefined {
  if (f.source === "policy_settings" || f.source === "skills") return undefined;
  if (!f.next) return undefined;
  if (f.next.disableAllHooks === true) {
    return { action: "block", reason: blockReason("this settings change sets disableAllHooks, which would switch off Damage Control's hooks") };
  }
  const before = f.previous ? listOurHooks(f.previous).length > 0 : f.file !== undefined && f.hadOurHooks;
  if (before && listOurHooks(f.next).length === 0) {
    return { action: "block", reason: blockReason(`this settings change removes Damage Control's hooks${f.file ? ` from ${f.file}` : ""}`) };
  }
  return undefined;
}
