import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readClaudeHook, renderClaudeAnswer } from "../../src/engine/agents/claude";
import { eventRow, HOOK_EVENTS, enforcedEvents } from "../../src/engine/events";
import { judge } from "../../src/engine/judge";
import type { Answer } from "../../src/engine/render";
import type { RuleSet } from "../../src/engine/types";
import { defaultRules } from "../../src/engine/rules/defaults";
import { fixture } from "./support";

const rules = defaultRules();
const ctx = { home: "/home/dev", fallbackCwd: "/home/dev/proj" };
const deny: Answer = { kind: "deny", reason: "R" };

/** A Claude Code payload read by its adapter and judged (advisory): the event's row and the verdict, if any. */
function judgeClaudeHook(payload: unknown, rules: RuleSet, c: typeof ctx) {
  const req = readClaudeHook(payload);
  const j = judge(req, rules, { home: c.home, folder: c.fallbackCwd }, "advisory");
  return { event: eventRow(req.event), verdict: j.kind === "verdict" ? j.verdict : undefined };
}

function payloadFiles(): string[] {
  const dir = fixture("payloads");
  return ["command", "http", "tools"].flatMap((sub) =>
    fs.readdirSync(path.join(dir, sub)).filter((f) => f.endsWith(".json")).map((f) => path.join(dir, sub, f)),
  );
}

describe("hook event table", () => {
  it("lists the 33 documented events plus PreSkillShellCommand, each once", () => {
    assert.equal(HOOK_EVENTS.length, 34);
    assert.equal(new Set(HOOK_EVENTS.map((e) => e.name)).size, 34);
    for (const e of HOOK_EVENTS) assert.ok(["gate", "context", "observe"].includes(e.class), e.name);
  });

  it("enforces rules exactly on the tool gates (and PostToolUse, after the fact)", () => {
    assert.deepEqual(enforcedEvents().map((e) => e.name), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "PostToolUse"]);
  });

  it("SessionStart and Setup take no HTTP hooks", () => {
    assert.deepEqual(HOOK_EVENTS.filter((e) => !e.http).map((e) => e.name), ["SessionStart", "Setup"]);
  });

  describe("renderer: a deny in the shape each event honours", () => {
    const cases: Record<string, unknown> = {
      PreToolUse: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "R" } },
      PermissionRequest: { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "R" } } },
      PreSkillShellCommand: { hookSpecificOutput: { hookEventName: "PreSkillShellCommand", permissionDecision: "deny", permissionDecisionReason: "R" } },
      PreModelSwitch: { hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "deny", permissionDecisionReason: "R" } },
      UserPromptSubmit: { decision: "block", reason: "R" },
      PostToolUse: { decision: "block", reason: "R" },
      PostToolBatch: { decision: "block", reason: "R" },
      TaskCreated: { decision: "block", reason: "R" },
      ConfigChange: { decision: "block", reason: "R" },
      PreCompact: { decision: "block", reason: "R" },
      TaskCompleted: { continue: false, stopReason: "R" },
      Elicitation: { hookSpecificOutput: { hookEventName: "Elicitation", action: "decline" } },
      ElicitationResult: { hookSpecificOutput: { hookEventName: "ElicitationResult", action: "decline" } },
      // Refusing these means "keep running": never.
      Stop: {},
      SubagentStop: {},
      TeammateIdle: {},
      WorktreeCreate: {},
    };
    for (const [event, expected] of Object.entries(cases)) {
      it(event, () => assert.deepEqual(renderClaudeAnswer(event, deny), expected));
    }
    it("every observe and context-only event renders {} whatever the answer", () => {
      for (const e of HOOK_EVENTS.filter((x) => x.shape === "none")) {
        assert.deepEqual(renderClaudeAnswer(e.name, deny), {}, e.name);
        assert.deepEqual(renderClaudeAnswer(e.name, { kind: "allow", reason: "x" }), {}, e.name);
      }
    });
    it("an unknown event is denied in the PreToolUse shape", () => {
      assert.deepEqual(renderClaudeAnswer("FutureEvent", deny), {
        hookSpecificOutput: { hookEventName: "FutureEvent", permissionDecision: "deny", permissionDecisionReason: "R" },
      });
    });
  });

  describe("renderer: the answers Claude Code was measured to honour", () => {
    const answers = JSON.parse(fs.readFileSync(fixture("payloads/answers.json"), "utf8")).answers as { name: string; body: unknown }[];
    const body = (name: string) => answers.find((a) => a.name === name)!.body;
    it("PreToolUse deny", () => {
      assert.deepEqual(renderClaudeAnswer("PreToolUse", { kind: "deny", reason: "DC-DENY via http" }), body("pretooluse-deny"));
    });
    it("PreToolUse ask", () => {
      assert.deepEqual(renderClaudeAnswer("PreToolUse", { kind: "ask", reason: "DC-ASK via http" }), body("pretooluse-ask (-p, no host)"));
    });
    it("PermissionRequest allow and deny", () => {
      assert.deepEqual(renderClaudeAnswer("PermissionRequest", { kind: "allow", reason: "" }), body("permissionrequest-allow"));
      assert.deepEqual(renderClaudeAnswer("PermissionRequest", { kind: "deny", reason: "DC-PERMREQ-DENY message" }), body("permissionrequest-deny"));
    });
    it("UserPromptSubmit block", () => {
      assert.deepEqual(renderClaudeAnswer("UserPromptSubmit", { kind: "deny", reason: "DC-PROMPT-BLOCKED" }), body("userpromptsubmit-block"));
    });
    it("no opinion is {}, never allow", () => {
      assert.deepEqual(renderClaudeAnswer("PreToolUse", { kind: "neutral" }), {});
      assert.deepEqual(renderClaudeAnswer("PermissionRequest", { kind: "ask", reason: "x" }), {}, "PermissionRequest has no ask");
    });
  });

  describe("judging the real captured payloads", () => {
    for (const file of payloadFiles()) {
      const rel = path.relative(fixture("payloads"), file);
      const { payload } = JSON.parse(fs.readFileSync(file, "utf8"));
      if (!payload) continue;
      it(rel, () => {
        const j = judgeClaudeHook(payload, rules, ctx);
        const row = eventRow(payload.hook_event_name);
        assert.equal(j.event.name, payload.hook_event_name);
        assert.equal(j.event.known, true);
        if (row.enforce !== "rules") {
          assert.equal(j.verdict, undefined, "not judged");
          return;
        }
        const cmd = (payload.tool_input as { command?: string }).command ?? "";
        if (row.name === "PostToolUse" && !cmd.startsWith("rm -rf")) {
          // After the fact only a refusal is worth a word: a harmless call is no opinion.
          assert.equal(j.verdict, undefined, "PostToolUse of a harmless call");
          return;
        }
        assert.ok(j.verdict, "judged");
        // In these captures only `rm -rf data` is dangerous; everything else is harmless work.
        assert.equal(j.verdict!.action, cmd.startsWith("rm -rf") ? "block" : "allow", cmd);
      });
    }
  });

  describe("malformed and unknown input is refused", () => {
    it("not an object", () => {
      for (const p of [null, 42, "x", [1, 2]]) assert.equal(judgeClaudeHook(p, rules, ctx).verdict!.action, "block");
    });
    it("no hook_event_name", () => {
      const j = judgeClaudeHook({ tool_name: "Bash", tool_input: { command: "ls" } }, rules, ctx);
      assert.equal(j.verdict!.action, "block");
      assert.equal(j.event.name, "PreToolUse");
    });
    it("PreToolUse without tool_input", () => {
      const j = judgeClaudeHook({ hook_event_name: "PreToolUse", tool_name: "Bash" }, rules, ctx);
      assert.equal(j.verdict!.action, "block");
      assert.match(j.verdict!.reason, /malformed/);
    });
    it("an unknown event", () => {
      const j = judgeClaudeHook({ hook_event_name: "PostWorldDomination", tool_name: "Bash", tool_input: { command: "ls" } }, rules, ctx);
      assert.equal(j.event.known, false);
      assert.equal(j.verdict!.action, "block");
      assert.match(j.verdict!.reason, /unknown/);
    });
    it("a relative or missing cwd falls back to the guarded folder", () => {
      const j = judgeClaudeHook({ hook_event_name: "PreToolUse", cwd: "rel", tool_name: "Read", tool_input: { file_path: ".env" } }, rules, ctx);
      assert.equal(j.verdict!.action, "block");
    });
  });
});
