// The call's own version, taken on the agent's post-tool event (Claude Code's PostToolUse, where
// it is installed): for each file the snapshot kept, a copy of what the call left. At restore this
// tells "the call's own change" from "an edit made since", and keeps the call's version too when
// someone edited the file after it (both later versions are kept, the old one goes in place).
import * as fs from "node:fs";
import * as path from "node:path";
import type { SnapshotStore } from "./store";

/** Snapshots taken for calls still waiting for their post-tool event: call key → snapshot id (bounded). */
export class PendingAfterCall {
  private readonly ids = new Map<string, string>();

  constructor(private readonly bound = 256) {}

  remember(key: string, id: string): void {
    this.ids.set(key, id);
    // The oldest go first: a call whose post-tool event never comes (failed, no such hook) is forgotten.
    for (const k of this.ids.keys()) {
      if (this.ids.size <= this.bound) break;
      this.ids.delete(k);
    }
  }

  take(key: string): string | undefined {
    const id = this.ids.get(key);
    if (id) this.ids.delete(key);
    return id;
  }
}

/** Keeps what the call left at each kept file (a copy: the next edit must not change it). */
export function keepAfterCall(store: SnapshotStore, id: string): void {
  const m = store.get(id);
  if (!m) return;
  const dir = store.folderOf(id);
  let n = 0;
  for (const f of m.files) {
    if (f.type !== "file" || f.linkOf) continue;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(f.path);
    } catch {
      continue; // deleted by the call: nothing of its own to keep
    }
    if (!st.isFile()) continue;
    const stored = `files/after-${n++}`;
    fs.mkdirSync(path.join(dir, "files"), { recursive: true });
    fs.copyFileSync(f.path, path.join(dir, stored), fs.constants.COPYFILE_FICLONE);
    f.after = { stored, mode: st.mode & 0o7777 };
    m.bytes += st.size;
  }
  if (n) store.save(m);
}
