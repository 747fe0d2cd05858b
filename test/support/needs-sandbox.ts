// Tests that run the real bubblewrap (and, for the agents' own sandboxes, socat and ripgrep).
// Under CI they must run: .ci/run installs the packages (scripts/install-system-deps.sh), so a
// missing one is a broken setup and fails, as a missing agent does. Elsewhere (a developer's
// machine without them) the test is skipped and says why.
import * as assert from "node:assert/strict";
import type { Context } from "mocha";
import { sandboxMachine } from "../../src/core/sandbox/machine";

export function needsSandbox(ctx: Context, what: "bwrap" | "agentSandboxes"): void {
  const m = sandboxMachine(process.env, process.platform);
  if (m[what]) return;
  const why = `${m.problems.join("; ")}${m.fix ? ` (fix: ${m.fix})` : ""}`;
  if (process.env.CI) assert.fail(`the sandbox cannot run here under CI: ${why}`);
  console.log(`      skipped: ${why}`);
  ctx.skip();
}
