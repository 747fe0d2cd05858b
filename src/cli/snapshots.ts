// damage-control snapshots [--cwd DIR] [--json] | --delete ID | --clear, and
// damage-control restore ID [--cwd DIR] [--dry-run], and damage-control undo-restore ID [--cwd DIR]
// [--dry-run]: what the guard kept before the destructive calls it let run, putting it back, and
// taking the last restore back. A public interface: scripts rely on the JSON and the
// exit codes (0: all restored; 1: something was not, and the output says what and why).
import * as path from "node:path";
import { redact } from "../engine/redact/redact";
import { holdsOf, type SnapshotManifest } from "../core/snapshots/manifest";
import { restoreSnapshot } from "../core/snapshots/restore";
import { SnapshotStore } from "../core/snapshots/store";
import { undoRestore } from "../core/snapshots/undo-restore";
import { args, CliError, EXIT } from "./io";

export const SNAPSHOTS_HELP = `Usage: damage-control snapshots [--cwd DIR] [--json]
       damage-control snapshots --delete ID
       damage-control snapshots --clear

Lists what Damage Control kept before the destructive calls it let run in DIR (default: the
current folder), newest first: id, time, agent, the command or tool, what it holds, size.
--json prints one JSON array of objects with id, time, agent, command, tool, folder, paths
(workspace-relative paths kept; empty when only git state is kept), holds, bytes, git.
--delete ID removes one snapshot, --clear all of them.`;

export const RESTORE_HELP = `Usage: damage-control restore ID [--cwd DIR] [--dry-run]

Puts snapshot ID back, in place: files with their content, mode and modification time (hard
links as links, symlinks and FIFOs as they were); uncommitted git changes with their modes; a
branch a reset or a rebase moved, when nothing was committed on it since (else the command is
printed and nothing moves); deleted branches with their configuration; stash entries at their
place in the list. What is there now and differs is never lost: it is moved aside first
(NAME.before-restore-ID) and the output says where; damage-control undo-restore ID takes the
restore back. For a force push, prints the old remote tip and the command that would push it
back (never pushed). Exit 0 when all was restored, 1 when something was not (said on a "not
restored:" line).`;

export const UNDO_RESTORE_HELP = `Usage: damage-control undo-restore ID [--cwd DIR] [--dry-run]

Takes the last restore of snapshot ID back: what it set aside (NAME.before-restore-ID) returns
to its place, what it created is removed (a copy of what the snapshot keeps), git's refs, index
entries and stash list get their values from before it. Nothing changed since that restore is
overwritten: when a file, a branch or the index differs from what the restore left, nothing is
done and the output says which ("changed since the restore:" lines). Exit 0 when undone, 1 when
not (changed since, or no restore of ID to undo).`;

export function runSnapshots(argv: string[]): number {
  const { values } = args(argv, { cwd: { type: "string" }, json: { type: "boolean" }, delete: { type: "string" }, clear: { type: "boolean" } });
  const store = new SnapshotStore();
  if (values.delete !== undefined) {
    if (!store.delete(checkedId(store, values.delete))) throw new CliError(`no snapshot ${values.delete}`);
    process.stdout.write(`deleted ${values.delete}\n`);
    return EXIT.ok;
  }
  if (values.clear) {
    process.stdout.write(`deleted ${store.clear()} snapshot(s)\n`);
    return EXIT.ok;
  }
  const list = store.listFor(path.resolve(values.cwd ?? process.cwd()));
  if (values.json) {
    process.stdout.write(JSON.stringify(list.map(publicView)) + "\n");
    return EXIT.ok;
  }
  if (list.length === 0) process.stdout.write("no snapshots for this folder\n");
  for (const m of list) process.stdout.write(`${m.id}  ${m.time}  ${m.agent}  ${redact(m.command)}\n    holds ${holdsOf(m)} (${sizeText(m.bytes)})\n`);
  return EXIT.ok;
}

export function runRestore(argv: string[]): number {
  const { store, m, dryRun } = snapshotFor(argv, "restore");
  const r = restoreSnapshot(store, m, { dryRun });
  const show = (p: string) => (p.startsWith(m.folder + "/") ? p.slice(m.folder.length + 1) : p);
  const out: string[] = [];
  const verb = r.dryRun ? "would restore" : "restored";
  for (const p of r.restored) out.push(`${verb} ${show(p)}`);
  for (const p of r.unchanged) out.push(`already as kept: ${show(p)}`);
  // Nothing is lost: what was there and differed (the call's change, or an edit made since) is beside it.
  for (const a of r.setAside) out.push(`kept: ${a.what} at ${show(a.path)} ${r.dryRun ? "would be" : "is"} at ${show(a.keptAt)}`);
  for (const c of r.conflicts) out.push(`not restored: ${show(c.path)} ${c.beside}`);
  for (const n of r.notKept) out.push(`not kept: ${show(n.path)} was ${n.why}`);
  for (const c of r.commands) out.push(`the remote is not changed by Damage Control; to push its old tip back: ${redact(c)}`);
  process.stdout.write((out.length ? out : ["nothing to restore"]).join("\n") + "\n");
  return r.conflicts.length ? EXIT.findings : EXIT.ok;
}

export function runUndoRestore(argv: string[]): number {
  const { store, m, dryRun } = snapshotFor(argv);
  const r = undoRestore(store, m.id, { dryRun });
  const show = (p: string) => (p.startsWith(m.folder + "/") ? p.slice(m.folder.length + 1) : p);
  if (r.nothing) {
    process.stdout.write(`no restore of ${m.id} to undo\n`);
    return EXIT.findings;
  }
  const out: string[] = [];
  for (const c of r.changed) out.push(`changed since the restore: ${show(c.path)} ${c.why}`);
  if (r.changed.length) {
    out.push("nothing was undone: save or move those elsewhere first, then run undo-restore again");
    process.stdout.write(out.join("\n") + "\n");
    return EXIT.findings;
  }
  const would = r.dryRun ? "would " : "";
  for (const p of r.putBack) out.push(`${would}put back ${show(p)}`);
  for (const p of r.removed) out.push(`${would}remove ${show(p)} (the restore made it)`);
  process.stdout.write(out.join("\n") + "\n");
  return EXIT.ok;
}

/** The JSON a script reads (the manifest's kept-file details stay private to the store). */
function publicView(m: SnapshotManifest) {
  return {
    id: m.id,
    time: m.time,
    agent: m.agent,
    // Manifests from before the redaction may still hold a secret: shown redacted all the same.
    command: redact(m.command),
    tool: m.tool,
    folder: m.folder,
    cwd: m.cwd,
    paths: m.paths,
    holds: holdsOf(m),
    bytes: m.bytes,
    git: m.git.map((g) => ({ repo: g.repo, uncommitted: !!g.worktree, branches: (g.branches ?? []).map((b) => b.name), stashes: (g.stashes ?? []).length, ...(g.remote && { remote: g.remote }) })),
  };
}

/** The snapshot ID named on the command line, kept for the folder (--cwd or the current one). */
function snapshotFor(argv: string[], verb = "undo-restore"): { store: SnapshotStore; m: SnapshotManifest; dryRun: boolean } {
  const { values, positionals } = args(argv, { cwd: { type: "string" }, "dry-run": { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new CliError(`${verb} takes one snapshot ID (see damage-control snapshots)`);
  const store = new SnapshotStore();
  const id = checkedId(store, positionals[0]);
  const m = store.get(id);
  if (!m) throw new CliError(`no snapshot ${id} (see damage-control snapshots)`);
  const cwd = path.resolve(values.cwd ?? process.cwd());
  if (!store.listFor(cwd).some((s) => s.id === id)) throw new CliError(`snapshot ${id} was kept for ${m.folder}, not for ${cwd} (pass --cwd ${m.folder})`);
  return { store, m, dryRun: !!values["dry-run"] };
}

function checkedId(store: SnapshotStore, id: string): string {
  try {
    store.folderOf(id);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  return id;
}

function sizeText(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
