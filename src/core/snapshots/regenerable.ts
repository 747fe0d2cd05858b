// What the defaults call regenerable (build/, node_modules/, dist/…) is only regenerable when it
// is: a folder that holds tracked files with uncommitted changes, or files git does not ignore,
// holds work no tool recreates, and is kept like any other. Outside a repository git cannot
// tell: the defaults' word stands.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Budget } from "./budget";
import { gitBuffer } from "./git-run";

export function holdsWork(p: string, budget: Budget): boolean {
  let dir = p;
  try {
    if (!fs.lstatSync(p).isDirectory()) dir = path.dirname(p);
  } catch {
    return false;
  }
  let out: Buffer;
  try {
    // Tracked files changed (" M"), staged, and untracked files that are not ignored ("??").
    out = gitBuffer(["status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--", p], { cwd: dir, timeoutMs: budget.left() });
  } catch (e) {
    const err = e as { code?: string; signal?: string };
    if (err.code === "ETIMEDOUT" || err.signal === "SIGTERM") throw e;
    return false; // not a repository
  }
  return out.length > 0;
}
