// Knowing that a few files changed without touching the disk per decision. Each file's folder is
// watched (fs.watch, not the file: a file that is replaced, deleted or not yet created has no
// inode to watch); a folder that does not exist yet is covered by watching its nearest existing
// ancestor, and the watch moves down when it appears. Any event for a watched name bumps
// `generation` (synchronously, in the watcher's callback), so the freshness check per decision is
// one integer comparison. Where a folder cannot be watched at all (no inotify left, a file system
// without events), `polling` is true and the caller must stat on every check, as before.
import * as fs from "node:fs";
import * as path from "node:path";

export class FileWatch {
  /** Bumped on every event that may concern one of the files. */
  generation = 0;
  /** Some file could not be watched: the caller must check it the slow way (stat) each time. */
  polling = false;
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private closed = false;

  constructor(
    private readonly files: readonly string[],
    /** Called after each bump (debounce UI work there; never needed for correctness). */
    private readonly onChange?: () => void,
  ) {
    this.arm();
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  /** (Re)places the watchers: each file's folder, or its nearest existing ancestor. */
  private arm(): void {
    if (this.closed) return;
    // Per folder watched, the names in it that concern us: the file's own name in its folder, the
    // next component of the way down to it in an ancestor (the folder that has yet to appear).
    const wanted = new Map<string, Set<string>>();
    for (const file of this.files) {
      const at = nearestExisting(path.dirname(file));
      if (at === undefined) continue;
      const next = path.relative(at, file).split(path.sep)[0];
      wanted.set(at, (wanted.get(at) ?? new Set()).add(next));
    }
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    let polling = false;
    this.names = wanted;
    for (const dir of wanted.keys()) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = fs.watch(dir, { persistent: false }, (event, name) => this.event(event, name));
        w.on("error", () => {
          w.close();
          this.watchers.delete(dir);
          this.polling = true;
          this.bump();
        });
        this.watchers.set(dir, w);
      } catch {
        polling = true;
      }
    }
    this.polling = polling;
  }

  private names = new Map<string, Set<string>>();

  private event(event: string, name: string | Buffer | null): void {
    const n = name === null ? undefined : String(name);
    const concerned = n === undefined || [...this.names.values()].some((names) => names.has(n));
    // A watched folder removed itself reports its own name, which no list holds.
    if (!concerned && !(event === "rename" && [...this.watchers.keys()].some((d) => !fs.existsSync(d)))) return;
    if (event === "rename") {
      // Something concerned appeared or went away: maybe a watched folder (a watcher on a removed
      // folder hears nothing of its namesake created later), maybe the folder we wait for. Rare:
      // every watcher is placed again.
      for (const w of this.watchers.values()) w.close();
      this.watchers.clear();
      this.arm();
    }
    this.bump();
  }

  private bump(): void {
    this.generation++;
    this.onChange?.();
  }
}

function nearestExisting(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      if (fs.statSync(d).isDirectory()) return d;
    } catch {
      /* not there: one level up */
    }
    if (d === path.dirname(d)) return undefined;
  }
}
