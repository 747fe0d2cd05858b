// The sandbox scenario (issue 34) shared by the runner agents' suites: a script whose text says
// nothing (`python3 cleanup.py`) that prints .env (zero-access) and deletes config/ (read-only),
// and the policy the rules of the scenario give (SCENARIO_RULES), built directly until part A's
// rules → policy function is wired.
import * as path from "node:path";
import { cleanupScript } from "../../support/cleanup-script";
import type { SandboxPolicy } from "../../../src/engine/sandbox/policy-types";

export const CLEANUP_PY = cleanupScript("config");

/** What the rules of the scenario give (SCENARIO_RULES: .env zero-access, config/ read-only), plus the guard's own files. */
export function scenarioPolicy(dir: string, stateDir: string): SandboxPolicy {
  return {
    version: 1,
    folder: dir,
    denyRead: [
      { path: path.join(dir, ".env"), rule: ".env", reason: "zero-access path" },
      { path: path.join(stateDir, "token"), rule: "guard:token" },
    ],
    denyWrite: [
      { path: path.join(dir, "config"), rule: "config/", reason: "read-only path" },
      { path: stateDir, rule: "guard:state" },
    ],
    allowWrite: [],
  };
}

