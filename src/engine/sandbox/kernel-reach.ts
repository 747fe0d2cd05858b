// What a sandbox policy enforces of the path rules (issue 34 §6), as plain data for the kernel
// answers (kernel-answers.ts). A module of its own, without the shell analysis: the core computes
// it beside the policy in every host, the extension's bundle included, while the answers
// themselves are made in the decision worker.
import type { PathRule, RuleSet } from "../types";
import type { SandboxPath, SandboxPolicy } from "./policy-types";

/** What the kernel sandbox a call runs in enforces of the path rules (plain data: it crosses to the decision worker as JSON). */
export interface KernelReach {
  /** Every zero-access entry is unreadable inside, or stands for nothing that exists now. */
  reads: boolean;
  /** `reads`, and every read-only entry unwritable inside, none freed for the tools. */
  writes: boolean;
  /** The read-only entries (as written in the rules) every path of which is unwritable inside. */
  readOnly: string[];
  /** Programs that run outside the sandbox (Claude Code's `sandbox.excludedCommands`): a command
   * line running any of them is not answered. */
  outside?: string[];
}

/**
 * Entries no policy path can stand for, that the kernel enforces by itself for a sandboxed call.
 * Measured (bubblewrap 0.8, Linux 6.18, an unprivileged user): a process in bubblewrap's user
 * namespace gets EACCES on /proc/PID/environ of any process outside it (reading another process's
 * environment needs ptrace rights, which a process in a child user namespace lacks there); the
 * processes inside are the call's own, whose environment it already has.
 */
export const KERNEL_OWN: ReadonlySet<string> = new Set(["/proc/*/environ"]);

/**
 * What the policy enforces of `rules`. `standsFor(rule)`: the existing paths the entry stands for
 * now, undefined when they cannot be known (the core's facts); an entry that stands for nothing
 * has nothing to read or change (a file the call itself creates holds only what the call wrote).
 */
export function kernelReach(rules: RuleSet, policy: SandboxPolicy, standsFor: (rule: PathRule) => readonly string[] | undefined): KernelReach {
  const enforced = (r: PathRule, lists: SandboxPath[][]) => {
    if (KERNEL_OWN.has(r.path)) return true;
    const paths = standsFor(r);
    return paths !== undefined && paths.every((p) => lists.some((l) => l.some((e) => covers(e.path, p))));
  };
  const reads = rules.zeroAccessPaths.every((r) => enforced(r, [policy.denyRead]));
  const readOnly: string[] = [];
  let allReadOnly = true;
  // An entry `sandbox.updatedByTools` frees is not in denyWrite (unless a folder around it is):
  // what the policy lists is the truth of what is unwritable inside.
  for (const r of rules.readOnlyPaths) {
    if (enforced(r, [policy.denyWrite, policy.denyRead])) readOnly.push(r.path);
    else allReadOnly = false;
  }
  return { reads, writes: reads && allReadOnly, readOnly };
}

function covers(folder: string, p: string): boolean {
  return p === folder || p.startsWith(folder === "/" ? "/" : folder + "/");
}
