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
import { everydayHosts, globMatcher, guardFiles, listedHomeFolders, writableFolders } from "./facts";

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

function build(folder: string, rules: RuleSet, env: NodeJS.ProcessEnv): SandboxPolicy {
  const home = env.HOME || os.homedir();
  return buildSandboxPolicy(rules, {
    folder,
    home,
    guard: guardFiles(folder, env),
    matches: globMatcher(folder, home, listedHomeFolders(rules, home)),
    writable: writableFolders(env),
    hosts: everydayHosts(folder, env),
  });
}
