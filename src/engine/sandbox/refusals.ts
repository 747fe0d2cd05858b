// What the kernel refused inside the sandbox, read from a sandboxed call's output (issue 34, item
// 5): the messages programs print for EACCES and EROFS ("cat: .env: Permission denied", Python's
// "[Errno 30] Read-only file system: 'keep/a'", rm's "cannot remove 'keep/a': Read-only file
// system"), each path resolved against the call's folder and matched to the policy's entry that
// covers it, so the feed can say which rule the kernel enforced. Pure; a path the policy does not
// cover is not reported (the refusal was not ours).
import { posix } from "node:path";
import type { SandboxPath, SandboxPolicy } from "./policy-types";

export interface KernelRefusal {
  path: string;
  kind: "read" | "write";
  rule: string;
  reason?: string;
}

/** A quoted or bare path next to a refusal message, in the spellings coreutils, shells, Python and Node use. */
const PATTERNS: { re: RegExp; kind: "read" | "write" | "either" }[] = [
  // Python: PermissionError: [Errno 13] Permission denied: '.env' / OSError: [Errno 30] Read-only file system: 'keep/a'
  { re: /\[Errno 13\] Permission denied: '([^'\n]+)'/g, kind: "read" },
  { re: /\[Errno 30\] Read-only file system: '([^'\n]+)'/g, kind: "write" },
  // Node: EACCES: permission denied, open '/w/.env' / EROFS: read-only file system, unlink '/w/keep/a'
  { re: /EACCES: permission denied, \w+ '([^'\n]+)'/g, kind: "read" },
  { re: /EROFS: read-only file system, \w+ '([^'\n]+)'/g, kind: "write" },
  // coreutils: rm: cannot remove 'keep/a': Read-only file system / touch: cannot touch 'x': Read-only file system
  { re: /'([^'\n]+)': Read-only file system/g, kind: "write" },
  // cat: .env: Permission denied / sh: 1: cannot create keep/x: Read-only file system / ls: cannot open directory 'secrets': Permission denied
  { re: /'([^'\n]+)': Permission denied/g, kind: "either" },
  { re: /(?:^|\s)(?:cannot create |cannot open )?([^\s:'"]+): Permission denied/gm, kind: "either" },
  { re: /cannot create ([^\s:'"]+): Read-only file system/g, kind: "write" },
];

function covering(list: SandboxPath[], abs: string): SandboxPath | undefined {
  let best: SandboxPath | undefined;
  for (const p of list) if ((abs === p.path || abs.startsWith(p.path + "/")) && (!best || p.path.length > best.path.length)) best = p;
  return best;
}

export function kernelRefusals(output: string, policy: SandboxPolicy, cwd: string): KernelRefusal[] {
  const found = new Map<string, KernelRefusal>();
  for (const { re, kind } of PATTERNS) {
    for (const m of output.matchAll(re)) {
      const abs = posix.resolve(cwd, m[1]!);
      const read = kind !== "write" ? covering(policy.denyRead, abs) : undefined;
      const write = !read && kind !== "read" ? (covering(policy.denyWrite, abs) ?? covering(policy.denyRead, abs)) : undefined;
      const hit = read ?? write;
      if (!hit || found.has(abs)) continue;
      found.set(abs, { path: abs, kind: read ? "read" : "write", rule: hit.rule, ...(hit.reason && { reason: hit.reason }) });
    }
  }
  return [...found.values()];
}
