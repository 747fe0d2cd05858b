// A word for the model beside an answer that lets a call run (issue 37: "a snapshot exists and the
// user can restore it") reaches the agents that read PreToolUse's additionalContext: Claude Code
// (measured) and VS Code's agent (its hook source). A refusal carries its reason only.
import * as assert from "node:assert/strict";
import { renderClaudeAnswer } from "../../src/engine/agents/claude";
import { renderVsCode } from "../../src/engine/agents/vscode";
import type { Answer } from "../../src/engine/render";

const NOTE = "Damage Control kept a snapshot (s1) before this call. The user can restore it.";
type Out = { hookSpecificOutput?: { additionalContext?: string; permissionDecision?: string } };

const renders: [string, (a: Answer) => Out][] = [
  ["Claude Code", (a) => renderClaudeAnswer("PreToolUse", a) as Out],
  ["VS Code's agent", (a) => renderVsCode("PreToolUse", a).body as Out],
];

describe("the snapshot notice beside an answer (additionalContext)", () => {
  for (const [agent, render] of renders) {
    it(`${agent}: on a call that runs, with or without a decision; never on a refusal`, () => {
      assert.equal(render({ kind: "neutral", context: NOTE }).hookSpecificOutput?.additionalContext, NOTE);
      assert.equal(render({ kind: "neutral", context: NOTE }).hookSpecificOutput?.permissionDecision, undefined, "no decision is made up");
      assert.equal(render({ kind: "allow", reason: "the user allowed it", context: NOTE }).hookSpecificOutput?.additionalContext, NOTE);
      assert.equal(render({ kind: "deny", reason: "no", context: NOTE }).hookSpecificOutput?.additionalContext, undefined);
      assert.deepEqual(render({ kind: "neutral" }), {});
    });
  }

  it("VS Code's agent: nothing on events that do not gate", () => {
    assert.deepEqual(renderVsCode("PostToolUse", { kind: "neutral", context: NOTE }).body, {});
  });
});
