// The snapshot store: <state dir>/snapshots/<id>/ with a manifest, the kept files and a private
// git object store. The state dir is zero-access for agents and private (0700) to the user, so a
// kept copy of a secret stays as private as the original. Oldest snapshots go first past the
// store's size bound, and every snapshot goes after the retention period.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensurePrivateDir, userStateDir, writeFileAtomic } from "../state-dir";
import type { SnapshotManifest } from "./manifest";

const ID = /^[0-9]{8}T[0-9]{9}-[0-9a-f]{6}$/;

/** Orders the snapshots one process takes within the same millisecond (see create). */
let sequence = 0;

export class SnapshotStore {
  readonly dir: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.dir = path.join(userStateDir(env), "snapshots");
  }

  /** A new, empty snapshot folder: its id sorts by time. */
  create(): { id: string; dir: string } {
    ensurePrivateDir(path.dirname(this.dir));
    ensurePrivateDir(this.dir);
    // Milliseconds in the id, so two snapshots of one burst of calls still list in their order;
    // within one millisecond this process's sequence orders them (the oldest is pruned first),
    // and two random bytes keep another process's snapshot of the same millisecond apart.
    const seq = (sequence = (sequence + 1) & 0xff).toString(16).padStart(2, "0");
    const id = `${new Date().toISOString().replace(/[-:.]/g, "").slice(0, 18)}-${seq}${crypto.randomBytes(2).toString("hex")}`;
    const dir = path.join(this.dir, id);
    fs.mkdirSync(dir, { mode: 0o700 });
    return { id, dir };
  }

  folderOf(id: string): string {
    if (!ID.test(id)) throw new Error(`"${id}" is not a snapshot id`);
    return path.join(this.dir, id);
  }

  save(m: SnapshotManifest): void {
    writeFileAtomic(path.join(this.folderOf(m.id), "manifest.json"), JSON.stringify(m) + "\n");
  }

  get(id: string): SnapshotManifest | undefined {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.folderOf(id), "manifest.json"), "utf8")) as SnapshotManifest;
    } catch {
      return undefined;
    }
  }

  /** Every complete snapshot, newest first (a folder without a manifest is one being taken). */
  list(): SnapshotManifest[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => ID.test(n))
      .sort()
      .reverse()
      .map((n) => this.get(n))
      .filter((m): m is SnapshotManifest => m !== undefined)
      .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  }

  /** The snapshots of calls decided in `folder` (or below it, or in a folder that holds it). */
  listFor(folder: string): SnapshotManifest[] {
    const f = path.resolve(folder);
    const related = (a: string) => a === f || a.startsWith(f + "/") || f.startsWith(a + "/");
    return this.list().filter((m) => related(m.folder) || related(m.cwd));
  }

  delete(id: string): boolean {
    const dir = this.folderOf(id);
    if (!fs.existsSync(dir)) return false;
    fs.rmSync(dir, { recursive: true, force: true });
    return true;
  }

  clear(): number {
    const all = this.list();
    for (const m of all) this.delete(m.id);
    return all.length;
  }

  /** Drops snapshots past the retention period, then the oldest until the store fits its bound. */
  prune(bounds: { maxStoreBytes: number; retentionDays: number }, now = Date.now()): string[] {
    const dropped: string[] = [];
    let total = 0;
    for (const m of this.list()) {
      const old = now - Date.parse(m.time) > bounds.retentionDays * 86_400_000;
      if (old || total + m.bytes > bounds.maxStoreBytes) {
        this.delete(m.id);
        dropped.push(m.id);
      } else total += m.bytes;
    }
    return dropped;
  }
}
