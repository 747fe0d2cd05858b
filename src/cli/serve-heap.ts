// The main thread's heap in `damage-control serve`: kept near what it holds live.
//
// Measured (bench/run.ts section 5, with per-isolate heap statistics and heap snapshots at start,
// 10,000 and 30,000 decisions): the live objects stay the same (no leak); what grew was V8 sizing.
//   - The new space went from 4 MB to V8's default maximum (≈ 27 MB, 16 MB semi-spaces). V8 sizes
//     its maximum when the isolate is created, so `--max-semi-space-size` set from inside the
//     process does nothing; the factor it grows the new space by is read at run time, and a
//     factor of 1 keeps the new space at its size after start.
//   - The old space grew to 3× its live size between full GCs (V8 lets it grow up to 4× under
//     its multi-GB default limit); 30% above the live size after each full GC is plenty here.
// Node applies the process's V8 flags again whenever a worker thread starts (a flag set before a
// Worker is created is gone once it is online), so they are set again each time one comes online:
// the decider worker, and its replacement after a timeout.
import * as v8 from "node:v8";
import type { Worker } from "node:worker_threads";

const FLAGS = ["--semi-space-growth-factor=1", "--heap-growing-percent=30"];

const apply = () => {
  for (const f of FLAGS) v8.setFlagsFromString(f);
};

/** Keeps this process's main-thread heap near its live size from now on. */
export function keepServeHeapSmall(): void {
  apply();
  process.on("worker", (w: Worker) => w.once("online", apply));
}
