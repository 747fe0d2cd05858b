// How soon concurrent asks end: 100 asks at once, one modal at a time, each with its own 300 ms
// deadline, the first clicked Allow and the second left on screen (so 98 end by their deadline
// while waiting in line). The figure is how late the last answer comes after its deadline, the
// timer and queue overhead a human's agent waits beyond the ask timeout. A figure, no bound: the
// unit test (test/unit/ask-queue.test.ts) holds the behaviour.
import type { AskRequest } from "../../src/core/asker";
import { AskQueue, type ModalChoice } from "../../src/views/ask-queue";

export interface AskFigures {
  asks: number;
  deadlineMs: number;
  /** From the first ask to the last answer. */
  lastAnsweredMs: number;
  /** lastAnsweredMs beyond the deadline. */
  lateMs: number;
}

export async function concurrentAsks(asks = 100, deadlineMs = 300): Promise<AskFigures> {
  const open: ((choice: ModalChoice) => void)[] = [];
  const q = new AskQueue({ show: () => new Promise<ModalChoice>((resolve) => open.push(resolve)), timeoutMs: () => deadlineMs });
  const req = (i: number): AskRequest => ({ agent: "claude", tool: "Bash", target: `cmd-${i}`, folder: "/w", reason: "r", rule: "x", sessionId: `s-${i}` });
  const started = performance.now();
  const answered = Array.from({ length: asks }, (_, i) => q.ask(req(i)));
  await new Promise((r) => setImmediate(r));
  open[0]?.("Allow");
  await Promise.all(answered);
  const lastAnsweredMs = performance.now() - started;
  // The modal left on screen is dismissed, so nothing keeps the run alive.
  for (const resolve of open) resolve(undefined);
  return { asks, deadlineMs, lastAnsweredMs, lateMs: lastAnsweredMs - deadlineMs };
}
