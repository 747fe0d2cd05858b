// What a ConfigChange judgement needs to know that only the file system can tell: the changed
// settings file's new content, and whether it held Damage Control's hooks before the change.
import * as fs from "node:fs";
import { isObject, type Json } from "../engine/agents/types";
import { listOurHooks } from "../engine/claude-settings";
import { changedSettingsFile, newConfigInPayload, type ConfigChangeFacts } from "../engine/config-change";

/** Which Claude Code settings files of the guarded folders hold our hooks, re-read when they change. */
export class OurHooksSnapshot {
  private readonly seen = new Map<string, { mtimeMs: number; ours: boolean }>();
  private lastRefresh = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly folders: string[]) {
    this.reread();
  }

  /** Cheap enough for the hot path: at most one stat per file every two seconds. */
  refresh(): void {
    if (this.timer) return;
    if (Date.now() - this.lastRefresh >= REFRESH_MS) this.reread();
  }

  /**
   * Re-read on a timer instead (a long-lived guard): no decision waits for it. Not on file events:
   * the snapshot must still say what the file held *before* a change when its ConfigChange comes.
   */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.reread(), REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private reread(): void {
    this.lastRefresh = Date.now();
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
        const parsed = readJson(file);
        this.seen.set(file, { mtimeMs, ours: parsed !== undefined && listOurHooks(parsed).length > 0 });
      }
    }
  }

  /** Did this file hold our hooks before the change? */
  had(file: string): boolean {
    return this.seen.get(file)?.ours ?? false;
  }

  /** After a change was allowed, remember the file as it is now. */
  forget(file: string | undefined): void {
    if (file) this.seen.delete(file);
    this.lastRefresh = 0;
    if (this.timer) this.reread();
  }

  /** The facts of one ConfigChange payload in `folder`. */
  factsOf(raw: unknown, folder: string): ConfigChangeFacts {
    const p: Json = isObject(raw) ? raw : {};
    const file = changedSettingsFile(p, folder);
    return {
      source: typeof p.source === "string" ? p.source : undefined,
      file,
      previous: isObject(p.previous_config) ? p.previous_config : undefined,
      next: newConfigInPayload(p) ?? (typeof p.file_path === "string" && p.file_path.endsWith(".json") ? readJson(p.file_path) : undefined),
      hadOurHooks: file !== undefined && this.had(file),
    };
  }
}

const REFRESH_MS = 2000;

function readJson(file: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
