// The snapshot step: before a destructive call that is not refused runs, keep what it would
// destroy. Only called for calls whose analysis found a destructive effect (Judgement.destroys);
// within the bounds of settings.ts, else the call goes on without a snapshot and says why.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Destroys } from "../../engine/undo/types";
import { Budget, NotKept } from "./budget";
import { existingPaths, FileKeeper } from "./keep-files";
import { holdsWork } from "./regenerable";
import { asNotKept, GitKeeper } from "./keep-git";
import type { SnapshotManifest } from "./manifest";
import { readSnapshotSettings, type SnapshotSettings } from "./settings";
import { SnapshotStore } from "./store";

export interface SnapshotMeta {
  agent: string;
  tool: string;
  command: string;
  folder: string;
  cwd: string;
}

/** kept: the snapshot; notKept: why not; nothing: nothing the call names exists (no snapshot needed). */
export type SnapshotOutcome = { kept: SnapshotManifest; ms: number } | { notKept: string; ms: number } | { nothing: true; ms: number };

const PRUNE_EVERY_MS = 60_000;
const lastPrune = new Map<string, number>();

export function takeSnapshot(d: Destroys, meta: SnapshotMeta, o: { env?: NodeJS.ProcessEnv; settings?: SnapshotSettings } = {}): SnapshotOutcome {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const settings = o.settings ?? readSnapshotSettings(o.env);
  if (!settings.enabled) return { notKept: "snapshots are turned off", ms: ms() };
  // The deadline counts from the start: every step below is on the agent's wait.
  const budget = new Budget(settings.timeBudgetMs, settings.maxCallBytes);
  // What exists: a destroyed path that is not there yet (a new file) needs nothing.
  let targets;
  try {
    targets = d.files.flatMap((f) => existingPaths(f).map((p) => ({ ...f, path: p }))).filter((t) => !t.regenerable || holdsWork(t.path, budget));
  } catch (e) {
    const why = asNotKept(e);
    if (why) return { notKept: why.why, ms: ms() };
    throw e;
  }
  if (targets.length === 0 && d.git.length === 0) return { nothing: true, ms: ms() };
  const store = new SnapshotStore(o.env);
  let snap: { id: string; dir: string } | undefined;
  const dir = () => (snap ??= store.create()).dir;
  let files_: string | undefined;
  const filesDir = () => {
    if (files_ === undefined) fs.mkdirSync((files_ = path.join(dir(), "files")), { recursive: true });
    return files_;
  };
  const files = new FileKeeper(filesDir, budget);
  const gits = new GitKeeper(dir, budget);
  try {
    for (const t of targets) files.keep(t.path, t.how, t.recursive);
    for (const g of d.git) gits.keep(g);
    if (snap) budget.spend(sizeBelow(path.join(snap.dir, "objects")));
    budget.left();
  } catch (e) {
    if (snap) fs.rmSync(snap.dir, { recursive: true, force: true });
    const why = asNotKept(e);
    return { notKept: why ? why.message.replace(/^not kept: /, "") : `failed (${(e as Error).message.split("\n")[0]})`, ms: ms() };
  }
  if (files.kept.length === 0 && gits.kept.size === 0) {
    if (snap) fs.rmSync(snap.dir, { recursive: true, force: true });
    return { nothing: true, ms: ms() };
  }
  dir();
  const manifest: SnapshotManifest = {
    id: snap!.id,
    time: new Date(started).toISOString(),
    ...meta,
    paths: [...new Set(targets.map((t) => t.path))].filter((p) => files.kept.some((k) => k.path === p)).map((p) => relativeTo(meta.folder, p)),
    files: files.kept,
    git: [...gits.kept.values()],
    ...(files.notKept.length && { notKept: files.notKept }),
    bytes: budget.spent,
  };
  store.save(manifest);
  // Pruning reads every manifest: once a minute per store is enough (Write/Edit calls keep many).
  const last = lastPrune.get(store.dir) ?? 0;
  if (Date.now() - last >= PRUNE_EVERY_MS || manifest.bytes > settings.maxStoreBytes / 10) {
    lastPrune.set(store.dir, Date.now());
    store.prune(settings);
  }
  return { kept: manifest, ms: ms() };
}

/** A path inside the folder as the workspace names it; outside it, absolute. */
export function relativeTo(folder: string, p: string): string {
  return p.startsWith(folder + "/") ? p.slice(folder.length + 1) : p;
}

function sizeBelow(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += sizeBelow(p);
    else if (e.isFile()) total += fs.statSync(p).size;
  }
  return total;
}

export { NotKept };
