// The ask modal's title (issue 27): "a human decides" is said once, also when the rule's reason
// already says it — the demo workspace's push rule (scripts/start.js) does.
import * as assert from "node:assert/strict";
import { askReason, describeRule } from "../../src/engine/reason";
import type { RuleRef } from "../../src/engine/types";
import { composeAskTitle, type Translate } from "../../src/views/ask-title";
import { headlineOf } from "../../src/views/panel/feed";

/** vscode.l10n.t without a bundle: the placeholders filled in. */
const t: Translate = (m, ...a) => m.replace(/\{(\d+)\}/g, (_, i: string) => a[Number(i)]);

const DEMO_PUSH_REASON = "pushing leaves this machine, so a human decides";

describe("ask modal title", () => {
  it("the demo's push rule: its reason ends with the phrase, so the title does not repeat it", () => {
    const rule: RuleRef = { kind: "bashPattern", text: "\\bgit\\s+push\\b", reason: DEMO_PUSH_REASON, line: 3 };
    const reason = headlineOf(askReason(DEMO_PUSH_REASON, rule), describeRule(rule));
    assert.equal(composeAskTitle(t, "Claude Code", "Bash", reason), `Claude Code wants to run a command: ${DEMO_PUSH_REASON}`);
  });
  it("a reason that does not say it gets the phrase once", () => {
    assert.equal(composeAskTitle(t, "pi", "Bash", "force-deletes a branch"), "pi wants to run a command: force-deletes a branch — a human decides");
    assert.equal(composeAskTitle(t, "pi", "Write", ""), "pi wants to use Write — a human decides");
  });
  it("case does not matter", () => {
    assert.equal(composeAskTitle(t, "pi", "Bash", "A human decides on pushes"), "pi wants to run a command: A human decides on pushes");
  });
});
