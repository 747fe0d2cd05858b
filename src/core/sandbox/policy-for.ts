// The one call the guard and the endpoint make for a sandbox policy: built from the rules in
// force for the folder and what is on disk now, cached. A new rule set (the rules store makes a
// new one on every change) builds a new policy at once; the same rules are looked at again on
// disk after POLICY_TTL_MS, so a matching file created since (a new `*.pem`) is found.
import * as os from "node:os";
import { buildSandboxPolicy } from "../../engine/sandbox/policy";
import type { SandboxPolicy } from "../../engine/sandbox/policy-types";
import type { RuleSet } from "../../engine/types";
import { everydayHosts, globMatcher, guardFiles, listedHomeFolders, writableFolders } from "./facts";

export const POLICY_TTL_MS = 2000;

interface Cached {
  policy: SandboxPolicy;
  at: number;
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
  const home = env.HOME || os.homedir();
  const policy = buildSandboxPolicy(rules, {
    folder,
    home,
    guard: guardFiles(folder, env),
    matches: globMatcher(folder, home, listedHomeFolders(rules, home)),
    writable: writableFolders(env),
    hosts: everydayHosts(folder, env),
  });
  byFolder.set(folder, { policy, at: now });
  return policy;
}
