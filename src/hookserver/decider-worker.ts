// The decision worker: runs the engine off the caller's main thread so the main thread can stop
// it when a decision takes too long. Entry points: dist/decider-worker.js (decider-worker-main.ts)
// and the pi extension bundle itself, started as a worker with DECIDER_WORKER_DATA.
import { parentPort } from "node:worker_threads";
import { judgeClaudeHook } from "../engine/claude-hook";
import { decide } from "../engine/decide";
import type { RuleSet } from "../engine/types";
import { existingRealpath, injectedFault, type WorkerRequest, type WorkerResponse } from "./decider";

/** Rule sets by id; the main thread sends each one once. A few are kept (multi-root windows). */
const rulesById = new Map<number, RuleSet>();
const KEEP = 16;

/** Serves decisions on this worker thread's port. */
export function runDeciderWorker(): void {
  parentPort?.on("message", onRequest);
}

function onRequest(req: WorkerRequest): void {
  let res: WorkerResponse;
  try {
    if (req.rules) {
      rulesById.set(req.rulesId, req.rules);
      if (rulesById.size > KEEP) rulesById.delete(rulesById.keys().next().value!);
    }
    const rules = rulesById.get(req.rulesId);
    if (!rules) throw new Error(`rule set ${req.rulesId} was never sent`);
    injectedFault(req.op === "claude" ? req.payload : req.call);
    const value =
      req.op === "claude"
        ? judgeClaudeHook(req.payload, rules, { ...req.ctx, realpath: existingRealpath })
        : decide(req.call, rules, { ...req.ctx, realpath: existingRealpath }, req.agent);
    res = { id: req.id, ok: true, value };
  } catch (e) {
    res = { id: req.id, ok: false, error: (e as Error)?.message ?? String(e) };
  }
  parentPort!.postMessage(res);
}
