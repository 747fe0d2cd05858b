// A sandbox policy → a macOS Seatbelt profile for `sandbox-exec -p PROFILE sh -c CMD` (pure).
// Untested on a Mac (none on these machines): the profile is checked as text only. Seatbelt
// applies the LAST matching rule, so the denials come after the allowances.
//   denyRead   (deny file-read* file-write* (subpath P))   unreadable and unwritable
//   denyWrite  (deny file-write* (subpath P))
//   allowWrite (deny file-write* (require-not (require-any (subpath A)…)))  writes only there
// `subpath` covers P itself and everything below it; the network is left as it is.
import type { SandboxPolicy } from "./policy-types";

/** A string literal in the profile language (a Scheme dialect): backslash and quote escaped. */
export function sbString(s: string): string {
  if (/[\0\n\r]/.test(s)) throw new Error(`a sandbox path cannot contain a NUL or a line break: ${JSON.stringify(s)}`);
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A rule's id as a comment line: a line break in it must not end the comment. */
const note = (rule: string) => `; ${rule.replace(/[\r\n]+/g, " ")}`;

export function seatbeltProfile(policy: SandboxPolicy): string {
  const lines = ["(version 1)", "(allow default)"];
  if (policy.allowWrite.length > 0) {
    // /dev/null, ttys and the like stay writable: every shell writes to them.
    const allowed = [...policy.allowWrite.map((p) => `(subpath ${sbString(p)})`), '(subpath "/dev")'];
    lines.push(`(deny file-write* (require-not (require-any ${allowed.join(" ")})))`);
  }
  for (const p of policy.denyWrite) lines.push(note(p.rule), `(deny file-write* (subpath ${sbString(p.path)}))`);
  for (const p of policy.denyRead) lines.push(note(p.rule), `(deny file-read* file-write* (subpath ${sbString(p.path)}))`);
  return lines.join("\n") + "\n";
}
