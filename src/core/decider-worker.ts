// The decision worker: runs the engine's judge off the caller's main thread so the main thread
// can stop it when a decision takes too long. Entry points: dist/decider-worker.js
// (decider-worker-main.ts) and the pi extension bundle itself, started with DECIDER_WORKER_DATA.
import { parentPort } from "node:worker_threads";
import type { WireRequest } from "../engine/agents/types";
import type { Posture } from "../engine/events";
import { judge, type Judgement } from "../engine/judge";
import type { RuleSet } from "../engine/types";
import type { PlainContext, WorkerRequest, WorkerResponse } from "./decider";
import { existingRealpath, existingText, injectedFault } from "./in-process-decider";
import { withSelfProtection } from "./self-program";

/** Rule sets by id, the most recently used last. A few are kept (multi-root windows, serve). */
const rulesById = new Map<number, RuleSet>();
const KEEP = 16;

/** Serves decisions on this worker thread's port. */
export function runDeciderWorker(): void {
  parentPort?.on("message", onRequest);
  const ready: WorkerResponse = { ready: true };
  parentPort?.postMessage(ready);
}

/** Requests come as JSON strings (objects only when they carry a rule set); answers go back as JSON strings. */
function onRequest(m: WorkerRequest | string): void {
  parentPort!.postMessage(JSON.stringify(answer(typeof m === "string" ? (JSON.parse(m) as WorkerRequest) : m)));
}

function answer(m: WorkerRequest): WorkerResponse {
  const rules = m.rules ?? rulesById.get(m.rulesId);
  // A rule set this worker does not hold (never sent, or dropped): the main thread sends it again.
  if (!rules) return { id: m.id, ok: false, unknownRules: true };
  rulesById.delete(m.rulesId);
  rulesById.set(m.rulesId, rules);
  if (rulesById.size > KEEP) rulesById.delete(rulesById.keys().next().value!);
  try {
    return { id: m.id, ok: true, value: judgeHere(m.req, rules, m.ctx, m.posture) };
  } catch (e) {
    return { id: m.id, ok: false, error: (e as Error)?.message ?? String(e) };
  }
}

/** One judgement on this thread, with the file system's answers: what the worker runs, and the inline path (decider.ts). */
export function judgeHere(req: WireRequest, rules: RuleSet, ctx: PlainContext, posture: Posture): Judgement {
  injectedFault(req);
  const judgement = judge(req, rules, { ...ctx, realpath: existingRealpath, readText: existingText }, posture);
  // The product's own program run against the guard, or a signal to an endpoint (issue 35): here,
  // where the shell analysis already is (the extension's own bundle stays without it).
  return withSelfProtection(judgement, req, { cwd: req.cwd ?? ctx.folder, home: ctx.home, ...ctx.self });
}
