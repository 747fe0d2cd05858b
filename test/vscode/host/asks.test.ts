// Asks end to end inside the extension host: a real POST /claude/hook for the fixture's ask rule
// (`\bgit\s+push\b`, ask: true) goes through the guard and the ask queue to the modal, which is
// vscode.window.showWarningMessage stubbed here (the extension calls the same API object). The
// HTTP answer is what Claude Code would get.
import * as assert from "node:assert/strict";
import type { DecisionRecord } from "../../../src/core/guard";
import { bashHook, fixtureFromEnv, permission, postClaudeHook, PUSH_PATTERN, PUSH_REASON, type HttpAnswer } from "../support/fixture-workspace";
import { dcApi, dcEndpoint, setAskTimeout, sleep, stubModal, stubWindow, until, type ModalCall } from "./helpers";

const fx = fixtureFromEnv();
let serial = 0;
/** A push command no earlier test used (a denied call is remembered for a minute and not asked again). */
const pushCommand = (what: string) => `git push origin ${what}-${Date.now()}-${++serial}`;

/** A POST whose answer can be checked for "still pending" without awaiting it. */
function track(p: Promise<HttpAnswer>): { promise: Promise<HttpAnswer>; done: () => boolean } {
  let finished = false;
  const promise = p.finally(() => (finished = true));
  return { promise, done: () => finished };
}

function commandOf(call: ModalCall): string {
  return /^Command: (.*)$/m.exec(String(call.options.detail))?.[1] ?? "";
}

suite("asks (stubbed modal)", () => {
  let modal: ReturnType<typeof stubModal> | undefined;
  const cleanups: (() => unknown)[] = [];

  teardown(async () => {
    // Release any modal a failed test left open, so the queue is free for the next test.
    for (const c of modal?.calls ?? []) c.answer.resolve(undefined);
    modal?.restore();
    modal = undefined;
    for (const c of cleanups.splice(0).reverse()) await c();
    await sleep(50);
  });

  test("an ask opens one modal that names the agent and the rule; Allow answers allow", async () => {
    const api = await dcApi();
    const { url, token } = await dcEndpoint(api);
    modal = stubModal();
    const command = pushCommand("allow");
    const post = track(postClaudeHook(url, token, bashHook(fx.workspace, command)));
    const call = await until(() => modal!.calls[0], 10_000, "the ask modal");
    assert.equal(call.options.modal, true, "not a modal");
    // Changed on purpose (issue 15): a bash pattern's ask also offers "Always allow in this folder" (last).
    assert.deepEqual(call.items, ["Deny", "Allow", "Always allow in this folder"], "Deny must be the first (default) button");
    // The title states the reason (not the regex); the detail names the rule.
    assert.equal(call.message, `Claude Code wants to run a command: ${PUSH_REASON} — a human decides`);
    const detail = String(call.options.detail);
    for (const line of ["Tool: Bash", `Command: ${command}`, `Folder: ${fx.workspace}`, `Rule: ${PUSH_PATTERN}`, `Reason: ${PUSH_REASON}`]) {
      assert.ok(detail.split("\n").includes(line), `detail lacks "${line}":\n${detail}`);
    }
    assert.match(detail, /No answer within 30 s means Deny\./);
    // Issue 24: the modal says whether approving is recoverable; a push changes the remote only.
    assert.match(detail, /Not recoverable by Damage Control: it sees nothing this call destroys on this machine/);
    // Not answered yet; and below, the answer carries the click, which only exists after it.
    assert.equal(post.done(), false, "the hook was answered before anyone clicked");
    call.answer.resolve("Allow");
    const answer = await post.promise;
    assert.equal(answer.status, 200);
    assert.equal(permission(answer)?.decision, "allow", JSON.stringify(answer.body));
    assert.match(permission(answer)!.reason, /Allowed by the user/);
    assert.equal(modal.calls.length, 1);
  });

  test("concurrent asks get one modal at a time, in turn; Deny and Cancel both answer deny", async () => {
    const api = await dcApi();
    const { url, token } = await dcEndpoint(api);
    modal = stubModal();
    const commands = [pushCommand("one"), pushCommand("two"), pushCommand("three")];
    const posts = new Map(commands.map((c) => [c, track(postClaudeHook(url, token, bashHook(fx.workspace, c)))]));
    const answers: Record<string, string | undefined> = {};
    const plan: (string | undefined)[] = ["Deny", undefined, "Allow"]; // undefined = Cancel / Escape

    for (let i = 0; i < 3; i++) {
      const call = await until(() => modal!.calls[i], 10_000, `modal #${i + 1}`);
      // Every ask still open has reached the queue (one on screen, the rest in line): the queue
      // shows the next one as soon as it may, so a second modal would be there now if it let it.
      await until(() => api.asks.waiting === 3 - i, 10_000, `${3 - i} asks in the queue`);
      assert.equal(modal.calls.length, i + 1, `${modal.calls.length} modals at once`);
      const command = commandOf(call);
      assert.ok(posts.has(command), `modal for an unknown command: ${command}`);
      assert.ok(!(command in answers), `asked twice about ${command}`);
      const pending = [...posts.entries()].filter(([c]) => !(c in answers)).map(([c, p]) => [c, p.done()]);
      assert.deepEqual(pending.filter(([, done]) => done), [], "a hook was answered before its modal was");
      answers[command] = plan[i];
      call.answer.resolve(plan[i]);
      const a = await posts.get(command)!.promise;
      const p = permission(a);
      if (plan[i] === "Allow") {
        assert.equal(p?.decision, "allow", JSON.stringify(a.body));
      } else {
        assert.equal(p?.decision, "deny", JSON.stringify(a.body));
        assert.match(p!.reason, plan[i] === "Deny" ? /the user denied it/ : /the user dismissed the dialog/);
        assert.ok(p!.reason.includes(PUSH_REASON), p!.reason);
      }
    }
    assert.equal(modal.calls.length, 3);

    // The agent repeats the call it was just refused: refused again at once, nobody is asked.
    const denied = commands.find((c) => answers[c] === "Deny")!;
    const again = await postClaudeHook(url, token, bashHook(fx.workspace, denied));
    assert.equal(permission(again)?.decision, "deny");
    assert.match(permission(again)!.reason, /already denied this same call/);
    // That answer is the queue's, given instead of a modal (it never queues the call), so none can follow.
    assert.equal(modal.calls.length, 3, "the human was asked again about a call they just denied");
  });

  test("an unanswered ask is denied when its time runs out, and the answer says it timed out", async function () {
    this.timeout(20_000);
    const api = await dcApi();
    const { url, token } = await dcEndpoint(api);
    cleanups.push(await setAskTimeout(1));
    modal = stubModal();
    const started = Date.now();
    const answer = await postClaudeHook(url, token, bashHook(fx.workspace, pushCommand("timeout")));
    const elapsed = Date.now() - started;
    assert.equal(modal.calls.length, 1, "no modal was shown");
    assert.match(String(modal.calls[0].options.detail), /No answer within 1 s means Deny\./);
    assert.equal(permission(answer)?.decision, "deny", JSON.stringify(answer.body));
    assert.match(permission(answer)!.reason, /timed out/);
    assert.match(permission(answer)!.reason, /nobody answered within 1 s/);
    assert.ok(elapsed >= 900 && elapsed < 6000, `answered after ${elapsed} ms with a 1 s timeout`);
  });

  test("a late answer to a timed-out modal changes nothing and says it came too late", async function () {
    this.timeout(30_000);
    const api = await dcApi();
    const guard = api.host.guard!;
    const { url, token } = await dcEndpoint(api);
    cleanups.push(await setAskTimeout(2));
    modal = stubModal();
    const infos: string[] = [];
    cleanups.push(stubWindow("showInformationMessage", (m: string) => (infos.push(m), Promise.resolve(undefined))));
    const decisions: DecisionRecord[] = [];
    const onDecision = (d: DecisionRecord) => decisions.push(d);
    api.host.on("decision", onDecision);
    cleanups.push(() => api.host.off("decision", onDecision));

    // A is on screen and left alone; B arrives meanwhile and waits in line behind it.
    const a = pushCommand("late-a");
    const b = pushCommand("late-b");
    const postA = postClaudeHook(url, token, bashHook(fx.workspace, a));
    await until(() => modal!.calls[0], 10_000, "modal A");
    const postB = postClaudeHook(url, token, bashHook(fx.workspace, b));
    const [answerA, answerB] = await Promise.all([postA, postB]);
    for (const [cmd, ans] of [[a, answerA], [b, answerB]] as const) {
      assert.equal(permission(ans)?.decision, "deny", `${cmd}: ${JSON.stringify(ans.body)}`);
      assert.match(permission(ans)!.reason, /timed out/, cmd);
    }
    // B's deadline ran while it waited: it was never put on screen over A's stale dialog.
    assert.equal(modal.calls.length, 1, "a second modal was stacked over the stale one");
    assert.equal(commandOf(modal.calls[0]), a);
    // A decision is recorded right after its answer went out (on purpose, so nothing of the record
    // is on the agent's wait): a client in this same process can read B's answer first.
    await guard.drain();
    assert.deepEqual(decisions.map((d) => [d.target, d.decision]), [[a, "denied-by-user"], [b, "denied-by-user"]]);
    const stats = { ...guard.stats };

    // Now the human clicks Allow on A's stale dialog.
    modal.calls[0].answer.resolve("Allow");
    const note = await until(() => infos.find((m) => /came too late/.test(m)), 5000, 'the "came too late" message');
    assert.match(note, /your "Allow" for Claude Code's Bash call came too late/);
    assert.match(note, /nothing was changed/);
    // The note comes from the handler a late click reaches; what the guard still had to record is written once drained.
    await guard.drain();
    assert.deepEqual(decisions.length, 2, `the late click produced a decision: ${JSON.stringify(decisions.slice(2))}`);
    assert.deepEqual({ ...guard.stats }, stats, "the late click changed the guard's counts");
    const ledger = guard.ledgerFor(fx.workspace).tail(100).filter((e) => e.target === a);
    assert.deepEqual(ledger.map((e) => e.decision), ["denied-by-user"], "the ledger records anything but one denial for A");

    // The queue is free again: the next ask is shown and answered normally.
    const c = pushCommand("after-late");
    const postC = postClaudeHook(url, token, bashHook(fx.workspace, c));
    const callC = await until(() => modal!.calls[1], 10_000, "the modal after the stale one");
    assert.equal(commandOf(callC), c);
    callC.answer.resolve("Allow");
    assert.equal(permission(await postC)?.decision, "allow");
  });

  test("a modal that fails to open is a deny, never an allow", async () => {
    const api = await dcApi();
    const { url, token } = await dcEndpoint(api);
    const restore = stubWindow("showWarningMessage", () => Promise.reject(new Error("no window")));
    cleanups.push(restore);
    const answer = await postClaudeHook(url, token, bashHook(fx.workspace, pushCommand("broken-modal")));
    assert.equal(permission(answer)?.decision, "deny", JSON.stringify(answer.body));
    assert.match(permission(answer)!.reason, /the dialog failed \(no window\)/);
  });
});
