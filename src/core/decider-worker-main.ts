// Entry of dist/decider-worker.js: a worker thread that only decides.
import { runDeciderWorker } from "./decider-worker";

runDeciderWorker();
