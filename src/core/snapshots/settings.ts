// The snapshot bounds, read by every path that takes snapshots (the extension, `serve`, the CLI's
// hook, pi): `snapshots` in the machine's /etc/damage-control/settings.json, then the user's
// $XDG_CONFIG_HOME/damage-control/settings.json (the user's values win). Read only when a call has
// a destructive effect, so other calls never touch these files.
import * as fs from "node:fs";
import * as path from "node:path";
import { userConfigDir } from "../layer-files";

export interface SnapshotSettings {
  enabled: boolean;
  /** How long keeping one call's snapshot may hold that call. */
  timeBudgetMs: number;
  /** The most one call's snapshot may hold (bytes of the files and git objects kept). */
  maxCallBytes: number;
  /** The most the whole store may hold: oldest snapshots go first. */
  maxStoreBytes: number;
  /** Snapshots older than this are removed. */
  retentionDays: number;
}

export const DEFAULT_SNAPSHOT_SETTINGS: Readonly<SnapshotSettings> = Object.freeze({
  enabled: true,
  timeBudgetMs: 1500,
  maxCallBytes: 512 * 1024 * 1024,
  maxStoreBytes: 2 * 1024 * 1024 * 1024,
  retentionDays: 7,
});

export function machineSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.DAMAGE_CONTROL_MACHINE_SETTINGS || "/etc/damage-control/settings.json";
}

export function userSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.DAMAGE_CONTROL_USER_SETTINGS || path.join(userConfigDir(env), "settings.json");
}

/** The bounds in force; a missing or broken file leaves the defaults (and says why in `problems`). */
export function readSnapshotSettings(env: NodeJS.ProcessEnv = process.env): SnapshotSettings & { problems: string[] } {
  const out: SnapshotSettings & { problems: string[] } = { ...DEFAULT_SNAPSHOT_SETTINGS, problems: [] };
  for (const file of [machineSettingsFile(env), userSettingsFile(env)]) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") out.problems.push(`${file}: ${(e as Error).message}`);
      continue;
    }
    const s = (parsed as { snapshots?: unknown } | null)?.snapshots;
    if (s === undefined) continue;
    if (typeof s !== "object" || s === null) {
      out.problems.push(`${file}: "snapshots" must be an object`);
      continue;
    }
    for (const [k, v] of Object.entries(s)) {
      if (!(k in DEFAULT_SNAPSHOT_SETTINGS)) out.problems.push(`${file}: unknown snapshots setting "${k}"`);
      else if (k === "enabled" ? typeof v !== "boolean" : typeof v !== "number" || !(v >= 0)) out.problems.push(`${file}: snapshots.${k} must be ${k === "enabled" ? "true or false" : "a number ≥ 0"}`);
      else (out as unknown as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}
