// damage-control snapshots [--cwd DIR] [--json] | --delete ID | --clear, and
// damage-control restore ID [--cwd DIR] [--dry-run]: what the guard kept before the destructive
// calls it let run, and putting it back. A public interface: scripts rely on the JSON and the
// exit codes (0: all restored; 1: a conflict, the kept version was put beside the file).
import * as path from "node:path";
import { redact } from "../engine/redact/redact";
import { holdsOf, type SnapshotManifest } from "../core/snapshots/manifest";
import { restoreSnapshot } from "../core/snapshots/restore";
import { SnapshotStore } from "../core/snapshots/store";
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

Puts snapshot ID back: files with their content, mode and modification time; uncommitted git
changes re-applied on top of the current state; deleted or moved branch tips and stash entries
re-created. A file changed since the snapshot is never overwritten: the kept version is written
beside it (NAME.restored-ID) and reported. For a force push, prints the old remote tip and the
command that would push it back (never pushed). Exit 0 when all was restored, 1 on a conflict.`;

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
  const { values, positionals } = args(argv, { cwd: { type: "string" }, "dry-run": { type: "boolean" } }, true);
  if (positionals.length !== 1) throw new CliError("restore takes one snapshot ID (see damage-control snapshots)");
  const store = new SnapshotStore();
  const id = checkedId(store, positionals[0]);
  const m = store.get(id);
  if (!m) throw new CliError(`no snapshot ${id} (see damage-control snapshots)`);
  const cwd = path.resolve(values.cwd ?? process.cwd());
  if (!store.listFor(cwd).some((s) => s.id === id)) throw new CliError(`snapshot ${id} was kept for ${m.folder}, not for ${cwd} (pass --cwd ${m.folder})`);
  const r = restoreSnapshot(store, m, { dryRun: values["dry-run"] });
  const show = (p: string) => (p.startsWith(m.folder + "/") ? p.slice(m.folder.length + 1) : p);
  const out: string[] = [];
  const verb = r.dryRun ? "would restore" : "restored";
  for (const p of r.restored) out.push(`${verb} ${show(p)}`);
  for (const p of r.unchanged) out.push(`already as kept: ${show(p)}`);
  for (const c of r.conflicts) out.push(`conflict: ${show(c.path)} changed since the snapshot; ${c.beside.startsWith("(") ? c.beside : `the kept version ${r.dryRun ? "would go" : "is"} at ${show(c.beside)}`}`);
  for (const c of r.commands) out.push(`the remote is not changed by Damage Control; to push its old tip back: ${redact(c)}`);
  process.stdout.write((out.length ? out : ["nothing to restore"]).join("\n") + "\n");
  return r.conflicts.length ? EXIT.findings : EXIT.ok;
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
