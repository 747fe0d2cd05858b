// The guard's sandbox step as the product runs it: the mode and the policy of a folder come from
// the same resolved rules (every layer) as its decisions, so a rules change reaches the next
// sandboxed call. Tests that need a fixed policy pass GuardSandboxOptions of their own instead.
import type { RuleSet } from "../../engine/types";
import { sandboxMode } from "../../engine/sandbox/policy";
import { userStateDir } from "../state-dir";
import { sandboxPolicyFor } from "./policy-for";
import type { GuardSandboxOptions } from "./step";

export function sandboxFromRules(rulesOf: (folder: string) => RuleSet, env: NodeJS.ProcessEnv = process.env): GuardSandboxOptions {
  return {
    mode: (folder) => sandboxMode(rulesOf(folder)),
    policy: (folder) => sandboxPolicyFor(folder, rulesOf(folder), { env }),
    stateDir: userStateDir(env),
    env,
  };
}
