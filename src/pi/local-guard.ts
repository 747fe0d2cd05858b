// pi's local guard (bundled to dist/pi-local-guard.js, installed beside pi-extension.js): the
// rules store, the engine and the bounded decider, for the tool calls no endpoint can answer, the
// status line and /damage-control. The extension loads it only then, so a session the endpoint
// guards never loads or compiles the engine (bench: pi's load time). This bundle is also its own
// decision worker: a local decision runs in a worker thread started from this very file, so a
// pathological rule or command cannot hang pi (it is cut off and refused).
import * as fs from "node:fs";
import { isMainThread, workerData } from "node:worker_threads";
import type { PiAnswer } from "../engine/agents/pi";
import type { Asker } from "../core/asker";
import { ruleCounts, type RuleCounts } from "../core/counts";
import { BoundedDecider, boundedDecider, DECIDER_WORKER_DATA, isDeciderWorkerData, type Decider } from "../core/decider";
import { judgeHere, runDeciderWorker } from "../core/decider-worker";
import { LocalGuards } from "../core/local-guard";
import type { RulesState } from "../core/rules-store";

if (!isMainThread && isDeciderWorkerData(workerData)) runDeciderWorker();

function localDecider(): Decider {
  return __filename.endsWith(".js") && fs.existsSync(__filename) ? new BoundedDecider(__filename, 2000, { workerData: DECIDER_WORKER_DATA, inline: () => judgeHere }) : boundedDecider();
}

export interface PiLocalGuard {
  /** The same decision the endpoint would make, from the same rules, asking `asker` for an ask. */
  decide(cwd: string, body: Record<string, unknown>, asker: Asker): Promise<PiAnswer>;
  /** The rules in force for `cwd` and their counts. */
  rules(cwd: string): { state: RulesState; counts: RuleCounts };
}

export function piLocalGuard(): PiLocalGuard {
  const guards = new LocalGuards(localDecider);
  return {
    async decide(cwd, body, asker) {
      return (await guards.for(cwd).handle("pi", body, { asker })).body as PiAnswer;
    },
    rules(cwd) {
      const state = guards.for(cwd).storeFor(cwd).current();
      return { state, counts: ruleCounts(state.rules) };
    },
  };
}
