// One snapshot's manifest (<store>/<id>/manifest.json): what was kept, where, and how to put it
// back. Never the content itself: that is in the snapshot's files/ and objects/ folders.
import type { KeepHow } from "../../engine/undo/types";

export interface KeptFile {
  /** Absolute path it was kept from. */
  path: string;
  /** A FIFO holds no content: it is re-created (its name and mode). */
  type: "file" | "dir" | "symlink" | "fifo";
  /** The kept copy, relative to the snapshot folder (files only). */
  stored?: string;
  how?: KeepHow;
  /** Symlink target. */
  link?: string;
  mode: number;
  mtimeMs: number;
  size: number;
  /** An earlier kept path that was the same file (a hard link): restored as a link to it. */
  linkOf?: string;
  /** What the call left there, copied on its post-tool event (after-call.ts), where the agent has one. */
  after?: { stored: string; mode: number };
}

export interface KeptWorktree {
  /** HEAD's commit when the snapshot was taken (absent in a repository without commits). */
  head?: string;
  /** The tree of HEAD, the index and the work tree (untracked files that are not ignored included). */
  base: string;
  index: string;
  tree: string;
}

export interface KeptGit {
  /** The work tree's top folder. */
  repo: string;
  worktree?: KeptWorktree;
  /** The checked-out branch and its tip before a reset or a rebase moved it. */
  head?: { branch: string; tip: string; mode?: "soft" | "mixed" };
  /** Each branch's tip and its configuration (upstream, merge, rebase…: `branch.NAME.*`). */
  branches?: { name: string; tip: string; config?: [string, string][] }[];
  /** The stash list, newest first (its place in the list is its index). */
  stashes?: { sha: string; message: string }[];
  remote?: { remote: string; refs: { ref: string; tip: string }[] };
}

export interface SnapshotManifest {
  id: string;
  time: string;
  agent: string;
  /** The command line as the agent sent it; for other tools the tool name and its main argument. */
  command: string;
  tool: string;
  /** The guarded folder the call was decided for. */
  folder: string;
  cwd: string;
  /** Paths kept (top-level ones, as the call named them), relative to `folder` when inside it. */
  paths: string[];
  files: KeptFile[];
  git: KeptGit[];
  /** What the call names that holds no content to keep (a socket, a device): said, not kept. */
  notKept?: { path: string; why: string }[];
  /** Bytes the snapshot holds (kept files and git objects). */
  bytes: number;
}

/** What a snapshot holds, in a few words ("2 paths, uncommitted changes"). */
export function holdsOf(m: SnapshotManifest): string {
  const parts: string[] = [];
  if (m.paths.length) parts.push(m.paths.length === 1 ? m.paths[0] : `${m.paths.length} paths`);
  for (const g of m.git) {
    if (g.worktree) parts.push("uncommitted changes");
    if (g.head) parts.push(`${g.head.branch}'s position`);
    if (g.branches?.length) parts.push(`branch ${g.branches.map((b) => b.name).join(", ")}`);
    if (g.stashes?.length) parts.push(`${g.stashes.length} stash entr${g.stashes.length === 1 ? "y" : "ies"}`);
    if (g.remote) parts.push(`${g.remote.remote}'s old tip of ${g.remote.refs.map((r) => r.ref).join(", ")}`);
  }
  return parts.join(", ") || "nothing";
}
