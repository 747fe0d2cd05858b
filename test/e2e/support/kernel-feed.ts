// What the sandbox scenario (sandbox-scenario.ts) must leave in the feed and the ledger when an
// agent's post-tool event reaches the guard: one kernel record naming .env and its rule. Shared by
// sandbox-runner.test.ts (Codex, Gemini, pi, OpenCode) and cline.test.ts.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import type { DecisionRecord } from "../../../src/core/guard";
import type { Guarded } from "./guarded";

/** The folder's ledger (.damage-control/audit.jsonl), a record a line. */
export function ledgerLines(g: Guarded): DecisionRecord[] {
  const file = g.proj.path(".damage-control/audit.jsonl");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as DecisionRecord) : [];
}

/** The scenario's kernel refusal of .env: one record, attached to the call, in the feed and the ledger, no secret in it. */
export function assertKernelRecord(g: Guarded, decisions: DecisionRecord[], agent: string): void {
  const kernel = decisions.filter((d) => d.decision === "kernel-refused");
  assert.equal(kernel.length, 1, `one kernel entry; the feed had: ${JSON.stringify(decisions)}`);
  const k = kernel[0]!;
  assert.equal(k.target, "python3 cleanup.py", "attached to the call as the model wrote it");
  assert.deepEqual(k.kernel?.find((r) => r.path === g.proj.path(".env")), { path: g.proj.path(".env"), kind: "read", rule: ".env", reason: "zero-access path" });
  assert.equal(k.rule, ".env");
  assert.ok(k.sandbox && "ran" in k.sandbox && k.sandbox.ran === "bubblewrap" && /^[0-9a-f]{32}$/.test(k.sandbox.policy));
  assert.equal(k.agent, agent);
  assert.doesNotMatch(JSON.stringify(k), /never-show-this/);
  const line = ledgerLines(g).find((l) => l.decision === "kernel-refused");
  assert.equal(line?.kernel?.[0]?.path, g.proj.path(".env"), "the ledger has it too");
}
