// Keeps the files a call would destroy: a hard link where the effect only unlinks or renames over
// the file (same filesystem; otherwise a copy), a copy (a reflink where the filesystem has them)
// where it rewrites the same inode. Mode and modification time go into the manifest.
import * as fs from "node:fs";
import * as path from "node:path";
import { Minimatch } from "minimatch";
import type { DestroyedPath, KeepHow } from "../../engine/undo/types";
import type { Budget } from "./budget";
import type { KeptFile } from "./manifest";

const GLOB = /[*?[\]{}]/;

/** The existing paths a destroyed path names: a glob in the last segment is expanded in its folder. */
export function existingPaths(d: DestroyedPath): string[] {
  const base = path.basename(d.path);
  const dir = path.dirname(d.path);
  if (!GLOB.test(base)) return exists(d.path) ? [d.path] : [];
  if (GLOB.test(dir)) return [];
  const m = new Minimatch(base);
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => m.match(n))
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

export class FileKeeper {
  readonly kept: KeptFile[] = [];
  /** What holds no content to keep (a socket, a device): said in the manifest, not kept. */
  readonly notKept: { path: string; why: string }[] = [];
  private readonly seen = new Set<string>();
  /** dev:ino → the first path kept of a file with several names, so the others come back as links to it. */
  private readonly inodes = new Map<string, string>();
  private n = 0;

  constructor(
    private readonly filesDir: () => string,
    private readonly budget: Budget,
  ) {}

  keep(p: string, how: KeepHow, recursive: boolean): void {
    if (this.seen.has(p)) return;
    this.seen.add(p);
    this.budget.left();
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return;
    }
    const meta = { path: p, mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, size: st.size };
    if (st.isSymbolicLink()) {
      this.kept.push({ ...meta, type: "symlink", link: fs.readlinkSync(p) });
    } else if (st.isDirectory()) {
      // A folder named without reaching below it (Write onto a folder, `rm` without -r, `mv x dir`)
      // loses nothing: the call fails or puts something inside it.
      if (!recursive) return;
      this.kept.push({ ...meta, type: "dir", size: 0 });
      for (const name of fs.readdirSync(p).sort()) this.keep(path.join(p, name), how, true);
    } else if (st.isFile()) {
      // Two names of one file (hard links) in what the call destroys: kept once, restored as links.
      const inode = `${st.dev}:${st.ino}`;
      const first = st.nlink > 1 ? this.inodes.get(inode) : undefined;
      if (first) return void this.kept.push({ ...meta, type: "file", linkOf: first, how });
      if (st.nlink > 1) this.inodes.set(inode, p);
      this.budget.spend(st.size);
      const stored = `files/${this.n++}`;
      const dst = path.join(this.filesDir(), stored.slice("files/".length));
      if (how === "unlinks") linkOrCopy(p, dst);
      else fs.copyFileSync(p, dst, fs.constants.COPYFILE_FICLONE);
      this.kept.push({ ...meta, type: "file", stored, how });
    } else if (st.isFIFO()) {
      // A FIFO holds no content: its name and mode are what it is.
      this.kept.push({ ...meta, type: "fifo", size: 0 });
    } else {
      this.notKept.push({ path: p, why: st.isSocket() ? "a socket" : st.isBlockDevice() ? "a block device" : st.isCharacterDevice() ? "a character device" : "a special file" });
    }
  }
}

/** A hard link keeps the inode the call unlinks; across filesystems (or where links are refused) a copy. */
function linkOrCopy(src: string, dst: string): void {
  try {
    fs.linkSync(src, dst);
  } catch {
    fs.copyFileSync(src, dst, fs.constants.COPYFILE_FICLONE);
  }
}
