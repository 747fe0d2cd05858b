// The guard's snapshot step: what the ask dialog says about recovering, and keeping a snapshot
// of a call that is not refused, as the ledger records it (what was kept, never its content).
import type { Destroys } from "../../engine/undo/types";
import { redact } from "../../engine/redact/redact";
import { holdsOf } from "./manifest";
import { readSnapshotSettings } from "./settings";
import { takeSnapshot, type SnapshotMeta } from "./take";

/** The ledger's and the feed's word on a snapshot. */
export type SnapshotNote =
  | { id: string; holds: string; paths: string[]; bytes: number; ms: number; remote?: string }
  | { notKept: string; ms?: number };

const REMOTE_NOTE = "effects on remote services are not kept (a force push's old tip is, as last fetched)";

/** For the ask dialog: will approving this call be recoverable, and if not, why. */
export function recoverability(d: Destroys | undefined, env?: NodeJS.ProcessEnv): string {
  if (!d) return "Not recoverable by Damage Control: it sees nothing this call destroys on this machine (remote services and databases are never kept).";
  if (!readSnapshotSettings(env).enabled) return "Not recoverable: snapshots are turned off in the Damage Control settings.";
  const remote = d.git.some((g) => g.kind === "remote-tip") ? ` The remote itself is not changed back: restoring prints the push that would.` : "";
  return `A snapshot is kept before it runs: Restore from the panel (or damage-control restore).${remote}`;
}

/**
 * What the agent is told beside an allowed call that kept a snapshot: it exists, and the USER can
 * restore it. Never that the agent may: restore and deleting snapshots are the user's.
 */
export function undoContext(id: string, holds: string): string {
  return `Damage Control kept a snapshot (${id}) of what this call overwrites or deletes (${holds}). The user can restore it from the Damage Control panel or with \`damage-control restore ${id}\`; restoring is the user's decision: do not run restore or delete snapshots yourself — tell the user if something should be undone.`;
}

/** Keeps the snapshot of a call about to run; undefined when nothing it names exists. */
export function snapshotStep(d: Destroys | undefined, meta: SnapshotMeta, env?: NodeJS.ProcessEnv): SnapshotNote | undefined {
  if (!d) return undefined;
  let outcome;
  try {
    // The manifest keeps the command as the ledger does: its secrets replaced (issue 35).
    outcome = takeSnapshot(d, { ...meta, command: redact(meta.command) }, { env });
  } catch (e) {
    // A snapshot is a safety net, not a gate: the call was decided; it goes on without one.
    return { notKept: `failed (${(e as Error).message.split("\n")[0]})` };
  }
  if ("nothing" in outcome) return undefined;
  if ("notKept" in outcome) return { notKept: outcome.notKept, ms: outcome.ms };
  const m = outcome.kept;
  const remote = m.git.some((g) => g.remote) ? REMOTE_NOTE : undefined;
  return { id: m.id, holds: holdsOf(m), paths: m.paths, bytes: m.bytes, ms: outcome.ms, ...(remote && { remote }) };
}
