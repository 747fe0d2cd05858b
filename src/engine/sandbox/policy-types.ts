// The contract between what decides a sandbox's policy (the rules, every layer resolved) and what
// enforces it (an agent's own sandbox settings, or our runner under bubblewrap / Seatbelt).
// Pure types: the policy is built in the guard, from the same resolved rules as every decision,
// and handed to enforcers as data; an enforcer never takes a policy from the agent's arguments or
// environment.

/** `auto`: sandbox where this machine can, say so where it cannot; `required`: a shell call that
 * cannot be sandboxed is refused; `off`: decide on the text only, as before. */
export type SandboxMode = "auto" | "required" | "off";

export const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "required", "off"];

/** One path the kernel is to protect, with the rule behind it (shown when the kernel refuses). */
export interface SandboxPath {
  /** Absolute, normalised, no trailing slash; a folder covers everything below it. */
  path: string;
  /** The rule's id (or `guard:<what>` for the guard's own files). */
  rule: string;
  /** The rule's reason, for the feed. */
  reason?: string;
}

export interface SandboxPolicy {
  /** Bumped when the shape changes; enforcers refuse a version they do not know. */
  version: 1;
  /** The workspace folder the policy is for. */
  folder: string;
  /** Unreadable and unwritable: zero-access paths (globs expanded in the workspace and the listed
   * HOME folders only), the guard's token. */
  denyRead: SandboxPath[];
  /** Unwritable (read stays allowed): read-only paths meant for nobody inside (the guard's own
   * files, the agents' hook settings, rules layers, system folders). */
  denyWrite: SandboxPath[];
  /** Written only where listed (everything else read-only): the workspace, temp, the caches
   * everyday tools write under HOME. Empty: writes allowed everywhere not in denyWrite. */
  allowWrite: string[];
  /** Hosts, for sandboxes that filter the network by domain. Absent: the network is not filtered. */
  network?: { allowedDomains: string[]; deniedDomains: string[] };
}
