// The panel's feed entries and pictures (src/views/panel/feed.ts) and the message validator.
import * as assert from "node:assert/strict";
import { ASK_WHY } from "../../src/views/ask-queue";
import { headlineOf, hitsOf, outcomeOf, statsOf, toFeed } from "../../src/views/panel/feed";
import { isFromPanel } from "../../src/views/panel/messages";

describe("panel feed", () => {
  it("gives each recorded decision a structured outcome (a timeout or a dismissal is not the human's Deny)", () => {
    const denied = (why: string) => outcomeOf({ decision: "denied-by-user", reason: `Blocked by Damage Control: x; ${why}. Do not work around this; report it to the user.` });
    assert.equal(outcomeOf({ decision: "block" }), "refused");
    assert.equal(outcomeOf({ decision: "allowed-by-user" }), "allowed");
    assert.equal(denied(ASK_WHY.denied), "denied");
    assert.equal(denied(ASK_WHY.timedOut(30)), "timed-out");
    assert.equal(denied(ASK_WHY.dismissed), "dismissed");
    assert.equal(denied(ASK_WHY.repeated), "denied-again");
    assert.equal(denied("asking failed (boom)"), "not-confirmed");
  });

  it("the headline is the reason without the model-facing wording", () => {
    assert.equal(headlineOf("Blocked by Damage Control: recursive rm (rule: bash pattern /\\brm\\s+(-[^\\s]*)*-[rRf]/, rules line 3). Do not work around this; report it to the user.", "x"), "recursive rm");
    assert.equal(headlineOf("Damage Control asks the user to confirm: pushing (rule: bash pattern /\\bgit\\s+push\\b/, rules line 5).", "x"), "pushing");
    assert.equal(headlineOf(undefined, "\\bgit\\b"), "rule \\bgit\\b");
  });

  it("toFeed names the agent and keeps folder and rule", () => {
    const e = toFeed({ time: "2026-01-01T00:00:00.000Z", agent: "claude", event: "PreToolUse", tool: "Bash", target: "rm -rf x", decision: "block", rule: "r", reason: "Blocked by Damage Control: no. Do not work around this; report it to the user.", folder: "/w" });
    assert.equal(e.agentLabel, "Claude Code");
    assert.equal(e.outcome, "refused");
    assert.equal(e.headline, "no");
    assert.equal(e.folder, "/w");
  });

  it("counts refusals per rule and per agent, decisions per 5 min and per hour", () => {
    const now = Date.parse("2026-01-01T12:00:00.000Z");
    const at = (minAgo: number) => new Date(now - minAgo * 60_000).toISOString();
    const entries = [
      { time: at(1), agent: "claude", rule: "a", decision: "block" as const },
      { time: at(2), agent: "pi", rule: "a", decision: "denied-by-user" as const },
      { time: at(7), agent: "claude", rule: "b", decision: "block" as const },
      { time: at(8), agent: "claude", decision: "allow" as const },
      { time: at(90), agent: "claude", rule: "b", decision: "allowed-by-user" as const },
      { time: at(60 * 30), agent: "claude", rule: "a", decision: "block" as const },
    ];
    const s = statsOf(entries, now);
    assert.deepEqual(s.perRule, [{ label: "a", count: 3 }, { label: "b", count: 1 }]);
    assert.deepEqual(s.perAgent, [{ label: "Claude Code", count: 3 }, { label: "pi", count: 1 }]);
    assert.equal(s.lastHour[11], 2);
    assert.equal(s.lastHour[10], 2);
    assert.equal(s.lastHour.reduce((a, b) => a + b), 4);
    assert.equal(s.lastDay[23], 4);
    assert.equal(s.lastDay[22], 1);
    assert.equal(s.lastDay.reduce((a, b) => a + b), 5, "the entry 30 h ago is outside the day");
    assert.deepEqual(hitsOf(entries), { a: 3, b: 2 });
  });

  it("the validator refuses malformed messages from the webview", () => {
    assert.equal(isFromPanel({ type: "edit", seq: 1, folder: "/w", edit: { op: "set", list: "bashToolPatterns", index: 0, field: "value", value: "x" } }), true);
    assert.equal(isFromPanel({ type: "edit", seq: 1, folder: "/w", edit: { op: "set", list: "nope", index: 0, field: "value", value: "x" } }), false);
    assert.equal(isFromPanel({ type: "edit", seq: 1, folder: "/w", edit: { op: "set", list: "bashToolPatterns", index: -1, field: "value", value: "x" } }), false);
    assert.equal(isFromPanel({ type: "edit", seq: 1, folder: "/w", edit: { op: "set", list: "bashToolPatterns", index: 0, field: "ask", value: "yes" } }), false);
    assert.equal(isFromPanel({ type: "openRules", folder: "/w", line: 2 }), true);
    assert.equal(isFromPanel({ type: "openRules", folder: "/w", line: "2" }), false);
    assert.equal(isFromPanel({ type: "save" }), false);
    assert.equal(isFromPanel({ type: "lint", text: "" }), false, "a dead message is gone");
    assert.equal(isFromPanel(null), false);
  });
});
