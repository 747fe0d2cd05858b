// Entry of dist/decider-worker.js. In a worker thread it serves decisions; loaded on a main
// thread (decider.ts, inlineJudgeOf) it only exports its judge, for the decisions that are bounded
// by construction and need no worker.
import { isMainThread } from "node:worker_threads";
import { judgeHere, runDeciderWorker } from "./decider-worker";

if (!isMainThread) runDeciderWorker();

export { judgeHere };
