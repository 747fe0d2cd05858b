// The ask queue is plain logic (no vscode import), tested here with a scripted "modal".
import * as assert from "node:assert/strict";
import type { AskRequest } from "../../src/core/asker";
import { AskQueue } from "../../src/views/ask-queue";

const req = (target: string, sessionId = "s1"): AskRequest => ({ agent: "claude", tool: "Bash", target, folder: "/w", reason: "r", rule: "x", sessionId });

/** A modal the test answers by hand; records how many are open at once. */
function scriptedModal() {
  const open: { request: AskRequest; answer: (a: "Allow" | "Deny" | undefined) => void }[] = [];
  let maxOpen = 0;
  let shown = 0;
  return {
    open,
    get maxOpen() {
      return maxOpen;
    },
    get shown() {
      return shown;
    },
    show: (request: AskRequest) =>
      new Promise<"Allow" | "Deny" | undefined>((resolve) => {
        shown++;
        const entry = {
          request,
          answer: (a: "Allow" | "Deny" | undefined) => {
            open.splice(open.indexOf(entry), 1);
            resolve(a);
          },
        };
        open.push(entry);
        maxOpen = Math.max(maxOpen, open.filter((o) => o).length);
      }),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("ask queue", () => {
  it("Allow approves; Deny and dismiss refuse with the reason", async () => {
    const modal = scriptedModal();
    const q = new AskQueue({ show: modal.show, timeoutMs: () => 5000 });
    const a = q.ask(req("a"));
    await tick();
    modal.open[0].answer("Allow");
    assert.deepEqual(await a, { approved: true, why: "" });
    const b = q.ask(req("b"));
    await tick();
    modal.open[0].answer("Deny");
    assert.equal((await b).why, "the user denied it");
    const c = q.ask(req("c"));
    await tick();
    modal.open[0].answer(undefined);
    assert.equal((await c).approved, false);
  });

  it("one modal at a time; the next appears when the first is answered", async () => {
    const modal = scriptedModal();
    const q = new AskQueue({ show: modal.show, timeoutMs: () => 5000 });
    const first = q.ask(req("1"));
    const second = q.ask(req("2"));
    await tick();
    assert.equal(modal.open.length, 1);
    assert.equal(modal.open[0].request.target, "1");
    modal.open[0].answer("Allow");
    await first;
    await tick();
    assert.equal(modal.open.length, 1);
    assert.equal(modal.open[0].request.target, "2");
    modal.open[0].answer("Deny");
    assert.equal((await second).approved, false);
  });

  it("a timed-out modal holds the line until dismissed; requests behind it are refused at their own deadline", async () => {
    const modal = scriptedModal();
    const q = new AskQueue({ show: modal.show, timeoutMs: () => 40 });
    const [a, b] = await Promise.all([q.ask(req("a")), q.ask(req("b"))]);
    assert.match(a.why, /timed out/);
    assert.match(b.why, /timed out/);
    assert.equal(modal.shown, 1, "b was never put on screen on top of the stale modal");
    modal.open[0].answer(undefined);
    const c = q.ask(req("c"));
    await tick();
    assert.equal(modal.shown, 2, "after the stale modal is dismissed the next ask shows");
    modal.open[0].answer("Allow");
    assert.equal((await c).approved, true);
  });

  it("no answer by the deadline = deny that says it timed out; a late click changes nothing and is reported", async () => {
    const modal = scriptedModal();
    const late: string[] = [];
    const q = new AskQueue({ show: modal.show, timeoutMs: () => 50, onLate: (r, a) => late.push(`${r.target}:${a}`) });
    const r = await q.ask(req("slow"));
    assert.equal(r.approved, false);
    assert.match(r.why, /timed out/);
    modal.open[0].answer("Allow");
    await tick();
    assert.deepEqual(late, ["slow:Allow"]);
  });

  it("100 concurrent asks: one modal at a time, each answered once by its own deadline, waiting in line or not", async () => {
    // How soon they are answered is a figure of `npm run bench` (bench/lib/asks.ts), not a bound here.
    const modal = scriptedModal();
    const late: string[] = [];
    const q = new AskQueue({ show: modal.show, timeoutMs: () => 300, onLate: (r) => late.push(r.target) });
    const settled = new Map<number, number>();
    const asks = Array.from({ length: 100 }, (_, i) =>
      q.ask(req(`cmd-${i}`, `session-${i}`)).then((r) => {
        settled.set(i, (settled.get(i) ?? 0) + 1);
        return r;
      }),
    );
    // The modal in front gets clicked Allow once, to prove answers route to the right request.
    await tick();
    modal.open[0].answer("Allow");
    // The second modal is never answered: the 98 behind it can only end by their own deadlines,
    // which run while they wait in line (a deadline started when shown would leave them hanging).
    const answers = await Promise.all(asks);
    assert.equal(modal.maxOpen, 1, "one modal on screen at a time");
    assert.equal(modal.open.length, 1, "the second modal is still on screen, unanswered");
    assert.equal(modal.open[0].request.target, "cmd-1");
    assert.equal(modal.shown, 2, "the 98 behind it timed out without being shown");
    assert.deepEqual(
      answers.map((r) => r.approved),
      answers.map((_, i) => i === 0),
    );
    for (const r of answers.slice(1)) assert.match(r.why, /timed out/);
    assert.equal(settled.size, 100);
    assert.ok([...settled.values()].every((n) => n === 1), "each answered once");
    // A late click on the timed-out modal changes nothing.
    modal.open[0].answer("Allow");
    await tick();
    assert.deepEqual(late, ["cmd-1"]);
  });

  it("the same call denied moments ago is refused without asking again", async () => {
    const modal = scriptedModal();
    const q = new AskQueue({ show: modal.show, timeoutMs: () => 5000, repeatWindowMs: 10_000 });
    const a = q.ask(req("rm -rf build"));
    await tick();
    modal.open[0].answer("Deny");
    await a;
    const again = await q.ask(req("rm -rf build"));
    assert.equal(again.approved, false);
    assert.match(again.why, /already denied .* not asked again/);
    assert.equal(modal.shown, 1);
    // Another session, or another command, is asked.
    const other = q.ask(req("rm -rf build", "s2"));
    await tick();
    assert.equal(modal.shown, 2);
    modal.open[0].answer("Allow");
    assert.equal((await other).approved, true);
  });

  it("a failing dialog is a refusal, and the queue goes on", async () => {
    let calls = 0;
    const q = new AskQueue({
      show: () => {
        calls++;
        if (calls === 1) throw new Error("no UI");
        return Promise.resolve("Allow" as const);
      },
      timeoutMs: () => 5000,
    });
    const [a, b] = await Promise.all([q.ask(req("x")), q.ask(req("y"))]);
    assert.equal(a.approved, false);
    assert.match(a.why, /dialog failed/);
    assert.equal(b.approved, true);
  });
});
