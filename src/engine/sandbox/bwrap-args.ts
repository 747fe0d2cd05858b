// A sandbox policy → bubblewrap's arguments (pure; the core checks which paths exist and what they
// are, and writes the placeholders). What each list becomes, in the order the mounts are made
// (a later mount covers an earlier one, so the strictest comes last):
//   everything       --dev-bind / /   (as today: the whole machine, devices, network untouched)
//   allowWrite (set) --ro-bind / /, then --bind each listed folder (writes only there)
//   denyWrite        --ro-bind P P    (EROFS on any write, delete or rename below P)
//   denyRead         --ro-bind <empty mode-000 placeholder> P   (EACCES on open and on listing)
// --cap-drop ALL: a process running as root would read a mode-000 file anyway (CAP_DAC_OVERRIDE).
// The network is left as it is (not unshared): registries, remotes and our own hooks keep working.
import type { SandboxPolicy } from "./policy-types";

export type PathKind = "file" | "dir";

export interface BwrapFacts {
  /** What is at an absolute path on this machine; undefined when nothing is (nothing to mount over). */
  kind(path: string): PathKind | undefined;
  /** Mode-000 placeholders in the guard's private state folder, mounted over denied paths. */
  emptyFile: string;
  emptyDir: string;
}

export interface BwrapPlan {
  args: string[];
  /** Policy paths left out because nothing is there (bubblewrap cannot mount over a missing path). */
  skipped: string[];
}

export function bwrapArgs(policy: SandboxPolicy, facts: BwrapFacts): BwrapPlan {
  const args = ["--die-with-parent", "--cap-drop", "ALL"];
  const skipped: string[] = [];
  if (policy.allowWrite.length === 0) args.push("--dev-bind", "/", "/");
  else {
    args.push("--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev");
    for (const p of policy.allowWrite) {
      if (facts.kind(p)) args.push("--bind", p, p);
      else skipped.push(p);
    }
  }
  for (const { path } of policy.denyWrite) {
    if (facts.kind(path)) args.push("--ro-bind", path, path);
    else skipped.push(path);
  }
  for (const { path } of policy.denyRead) {
    const kind = facts.kind(path);
    if (kind) args.push("--ro-bind", kind === "dir" ? facts.emptyDir : facts.emptyFile, path);
    else skipped.push(path);
  }
  return { args, skipped };
}

/** The arguments as bubblewrap's `--args FD` reads them: each one NUL-terminated. */
export function argsFile(args: readonly string[]): string {
  for (const a of args) if (a.includes("\0")) throw new Error("a sandbox path cannot contain NUL");
  return args.map((a) => a + "\0").join("");
}
