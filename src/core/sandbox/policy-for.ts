// The one call the guard and the endpoint make for a sandbox policy: built from the rules in
// force for the folder and what is on disk now, cached. A new rule set (the rules store makes a
// new one on every change) builds a new policy at once (a walk of the workspace: 14–38 ms here);
// for the same rules, once POLICY_TTL_MS has passed the cached policy is still answered and a
// fresh one is built right after (setImmediate), off the caller's path, so a matching file created
// since (a new `*.pem`) is in the policy of the calls after it.
import * as os from "node:os";
import { buildSandboxPolicy } from "../../engine/sandbox/policy";
import type { SandboxPolicy } from "../../engine/sandbox/policy-types";
import type { RuleSet } from "../../engine/types";
import type { KernelReach } from "../../engine/sandbox/kernel-reach";
import { everydayHosts, globMatcher, guardFiles, listedHomeFolders, writableFolders } from "./facts";
import { reachOf } from "./kernel-reach";

export const POLICY_TTL_MS = 2000;

interface Cached {
  policy: SandboxPolicy;
  at: number;
  refreshing?: boolean;
}

const cache = new WeakMap<RuleSet, Map<string, Cached>>();

export interface PolicyOptions {
  env?: NodeJS.ProcessEnv;
  /** For tests: the clock. */
  now?: number;
}

export function sandboxPolicyFor(folder: string, rules: RuleSet, o: PolicyOptions = {}): SandboxPolicy {
  const env = o.env ?? process.env;
  const now = o.now ?? Date.now();
  let byFolder = cache.get(rules);
  if (!byFolder) cache.set(rules, (byFolder = new Map()));
  const hit = byFolder.get(folder);
  if (hit && now - hit.at < POLICY_TTL_MS) return hit.policy;
  if (hit) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      const map = byFolder;
      setImmediate(() => map.set(folder, { policy: build(folder, rules, env), at: o.now ?? Date.now() }));
    }
    return hit.policy;
  }
  const policy = build(folder, rules, env);
  byFolder.set(folder, { policy, at: now });
  return policy;
}

/** What each policy enforces of its rules, computed on demand from the facts it was made of. */
const reaches = new WeakMap<SandboxPolicy, () => KernelReach>();
const reached = new WeakMap<SandboxPolicy, KernelReach>();

/** What `policy` (one sandboxPolicyFor made) enforces of the rules it was made from; undefined for any other. */
export function kernelReachOf(policy: SandboxPolicy): KernelReach | undefined {
  let r = reached.get(policy);
  if (!r) {
    const make = reaches.get(policy);
    if (!make) return undefined;
    reached.set(policy, (r = make()));
    reaches.delete(policy);
  }
  return r;
}

function build(folder: string, rules: RuleSet, env: NodeJS.ProcessEnv): SandboxPolicy {
  const home = env.HOME || os.homedir();
  const homeFolders = listedHomeFolders(rules, home);
  // One matcher for the policy and its reach: the workspace is walked once.
  const matches = globMatcher(folder, home, homeFolders);
  const policy = buildSandboxPolicy(rules, {
    folder,
    home,
    guard: guardFiles(folder, env),
    matches,
    writable: writableFolders(env),
    hosts: everydayHosts(folder, env),
  });
  reaches.set(policy, () => reachOf(rules, policy, home, [folder, ...homeFolders], matches));
  return policy;
}
