// Restoring a snapshot from VS Code: the feed's Restore and the *Damage Control: Restore…*
// command. What will be put back is listed first (a dry run of the same restore the CLI runs),
// then confirmed in a modal; what is there now is never lost (moved aside, and said).
import * as vscode from "vscode";
import { holdsOf, type SnapshotManifest } from "../core/snapshots/manifest";
import { restoreSnapshot, type RestoreReport } from "../core/snapshots/restore";
import { SnapshotStore } from "../core/snapshots/store";
import { undoRestore } from "../core/snapshots/undo-restore";

export interface RestoreDone {
  ok: boolean;
  text: string;
}

/** Lists what snapshot `id` puts back, asks, restores; undefined when the user cancelled. */
export async function confirmAndRestore(id: string, store = new SnapshotStore()): Promise<RestoreDone | undefined> {
  const t = vscode.l10n.t;
  const m = store.get(id);
  if (!m) return { ok: false, text: t("Snapshot {0} is no longer kept (deleted, or past the retention period).", id) };
  const plan = restoreSnapshot(store, m, { dryRun: true });
  const show = (p: string) => (p.startsWith(m.folder + "/") ? p.slice(m.folder.length + 1) : p);
  const detail = [
    t("Kept before: {0}", m.command),
    "",
    ...plan.restored.map((p) => t("Put back: {0}", show(p))),
    ...plan.unchanged.map((p) => t("Already as kept: {0}", show(p))),
    ...plan.setAside.map((a) => t("What is there now is kept at: {0}", show(a.keptAt))),
    ...plan.conflicts.map((c) => t("Not restored: {0} {1}", show(c.path), c.beside)),
    ...plan.commands.map((c) => t("Not done by Damage Control (the remote): {0}", c)),
  ].join("\n");
  const restore = t("Restore");
  const choice = await vscode.window.showWarningMessage(t("Restore what Damage Control kept before this call?"), { modal: true, detail }, restore);
  if (choice !== restore) return undefined;
  let done: RestoreReport;
  try {
    done = restoreSnapshot(store, m);
  } catch (e) {
    return { ok: false, text: t("Restore failed: {0}", (e as Error).message) };
  }
  const conflicts = done.conflicts.length;
  // Whole sentences per count (a translator sees each; no "item(s)").
  const restored = done.restored.length === 1 ? t("Restored {0}.", show(done.restored[0])) : t("Restored {0} items.", done.restored.length);
  // What was there before the restore is never lost: say where it went.
  const aside = done.setAside.length === 0 ? "" : done.setAside.length === 1 ? ` ${t("What was there is kept at {0}.", show(done.setAside[0].keptAt))}` : ` ${t("What was there is kept beside each ({0} files).", done.setAside.length)}`;
  const unchanged = done.unchanged.length === 0 ? "" : done.unchanged.length === 1 ? ` ${t("1 was already as kept.")}` : ` ${t("{0} were already as kept.", done.unchanged.length)}`;
  return conflicts
    ? { ok: false, text: `${restored} ${conflicts === 1 ? t("1 not restored (see damage-control restore --dry-run).") : t("{0} not restored (see damage-control restore --dry-run).", conflicts)}${aside}` }
    : { ok: true, text: restored + unchanged + aside };
}

/**
 * The feed's Undo restore: the last restore of snapshot `id` taken back (the same undo as
 * `damage-control undo-restore`). No modal: nothing is lost (what goes is a copy the snapshot
 * keeps), and a file changed since the restore stops it before anything changes.
 */
export function undoLastRestore(id: string, store = new SnapshotStore()): RestoreDone & { nothingToUndo?: boolean } {
  const t = vscode.l10n.t;
  const m = store.get(id);
  if (!m) return { ok: false, text: t("Snapshot {0} is no longer kept (deleted, or past the retention period).", id) };
  const show = (p: string) => (p.startsWith(m.folder + "/") ? p.slice(m.folder.length + 1) : p);
  let r;
  try {
    r = undoRestore(store, id);
  } catch (e) {
    return { ok: false, text: t("Undo restore failed: {0}", (e as Error).message) };
  }
  if (r.nothing) return { ok: false, nothingToUndo: true, text: t("There is no restore of this snapshot left to undo.") };
  if (r.changed.length) {
    const list = r.changed.map((c) => `${show(c.path)} ${c.why}`).join("; ");
    return { ok: false, text: t("Undo restore stopped, nothing was changed: {0}. Save or move it elsewhere, then undo again.", list) };
  }
  // Whole sentences per count (a translator sees each).
  const back = r.putBack.length === 0 ? "" : r.putBack.length === 1 ? ` ${t("{0} is back as it was before the restore.", show(r.putBack[0]))}` : ` ${t("{0} items are back as they were before the restore.", r.putBack.length)}`;
  const gone = r.removed.length === 0 ? "" : r.removed.length === 1 ? ` ${t("{0}, which the restore had made, is removed.", show(r.removed[0]))}` : ` ${t("{0} items the restore had made are removed.", r.removed.length)}`;
  return { ok: true, text: t("Restore undone.") + back + gone };
}

/** *Damage Control: Restore…*: the snapshots of the guarded folders in a quick pick, newest first. */
export async function pickAndRestore(folders: string[], store = new SnapshotStore()): Promise<void> {
  const t = vscode.l10n.t;
  const seen = new Set<string>();
  const all: SnapshotManifest[] = [];
  for (const f of folders) {
    for (const m of store.listFor(f)) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      all.push(m);
    }
  }
  if (all.length === 0) {
    void vscode.window.showInformationMessage(t("Damage Control has kept no snapshots for this workspace."));
    return;
  }
  all.sort((a, b) => (a.time < b.time ? 1 : -1));
  const pick = await vscode.window.showQuickPick(
    all.map((m) => ({ label: m.command, description: new Date(m.time).toLocaleString(), detail: `${m.agent} · ${holdsOf(m)}`, id: m.id })),
    { placeHolder: t("Which snapshot should be restored?"), matchOnDescription: true, matchOnDetail: true },
  );
  if (!pick) return;
  const done = await confirmAndRestore(pick.id, store);
  if (!done) return;
  if (done.ok) void vscode.window.showInformationMessage(done.text);
  else void vscode.window.showWarningMessage(done.text);
}
