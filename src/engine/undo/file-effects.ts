// Which path effects destroy what existed, and how (KeepHow). A table of the analysis's `via`
// (the program or tool that produced the effect): an effect not named here that deletes unlinks,
// one that writes rewrites in place (the safe default: a copy keeps it whatever the program does).
import type { Access } from "../types";
import type { KeepHow } from "./types";

/** Writes that leave existing content as it was: nothing to keep. */
const KEEPS_CONTENT = new Set([">> redirection", "&>> redirection", "<> redirection", "touch", "mkdir", "mkfifo", "install -d", "chmod", "chown", "chgrp", "rmdir"]);

/** Writes that replace the file by renaming a new one over it (the old inode is only unlinked). */
const RENAMES_OVER = new Set(["mv onto", "sed -i", "perl -i", "ruby -i", "ln", "rsync onto"]);

/** Deletes that first overwrite the content in place (a hard link would see the shredded inode). */
const OVERWRITES_FIRST = new Set(["shred"]);

/** Writes on another machine (scp onto a host): nothing on this machine to keep. */
const ELSEWHERE = new Set(["scp onto another machine"]);

/** What `via` does to an existing path: how to keep it, or undefined when nothing is destroyed. */
export function keepHow(access: Access, via: string): KeepHow | undefined {
  if (access !== "write" && access !== "delete") return undefined;
  if (ELSEWHERE.has(via)) return undefined;
  if (KEEPS_CONTENT.has(via)) return undefined;
  if (OVERWRITES_FIRST.has(via)) return "in-place";
  if (access === "delete" || RENAMES_OVER.has(via)) return "unlinks";
  return "in-place";
}

/** Effects git's own handler reports: the git-state effect keeps them (index, work tree, untracked). */
export function isGitEffect(via: string): boolean {
  return via.startsWith("git ");
}
