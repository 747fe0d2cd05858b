// Governed mode: the three tiers of gating events, per event and per posture.
import * as assert from "node:assert/strict";
import { claudeBody, piBody } from "./support";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { defaultAnswer, eventRow, guardedEvents, HOOK_EVENTS, type Posture } from "../../src/engine/events";
import { renderClaudeAnswer } from "../../src/engine/agents/claude";
import { Guard } from "../../src/core/guard";
import { eventsFor } from "../../src/engine/claude-settings";

/** The expected default of every gating event: [tier, advisory, governed]. */
const EXPECTED: Record<string, [string, "neutral" | "deny", "neutral" | "deny"]> = {
  PreToolUse: ["classic", "neutral", "deny"],
  PermissionRequest: ["classic", "neutral", "deny"],
  PreSkillShellCommand: ["classic", "neutral", "deny"],
  PostToolUse: ["classic", "neutral", "deny"],
  UserPromptSubmit: ["lifecycle", "neutral", "neutral"],
  UserPromptExpansion: ["lifecycle", "neutral", "neutral"],
  PreCompact: ["lifecycle", "neutral", "neutral"],
  PostToolBatch: ["lifecycle", "neutral", "neutral"],
  TaskCompleted: ["lifecycle", "neutral", "neutral"],
  TaskCreated: ["lifecycle", "neutral", "deny"],
  ConfigChange: ["lifecycle", "neutral", "deny"],
  PreModelSwitch: ["lifecycle", "neutral", "deny"],
  Stop: ["non-enforceable", "neutral", "neutral"],
  SubagentStop: ["non-enforceable", "neutral", "neutral"],
  TeammateIdle: ["non-enforceable", "neutral", "neutral"],
  Elicitation: ["non-enforceable", "neutral", "neutral"],
  ElicitationResult: ["non-enforceable", "neutral", "neutral"],
  WorktreeCreate: ["non-enforceable", "neutral", "neutral"],
};

describe("posture: the event table's tiers and defaults", () => {
  for (const [name, [tier, advisory, governed]] of Object.entries(EXPECTED)) {
    it(`${name}: ${tier}, advisory ${advisory}, governed ${governed}`, () => {
      const row = eventRow(name);
      assert.equal(row.known, true);
      assert.equal(row.tier, tier);
      assert.equal(defaultAnswer(row, "advisory"), advisory);
      assert.equal(defaultAnswer(row, "governed"), governed);
    });
  }

  it("every gate of the table has a tier other than none; every non-gate is none", () => {
    for (const e of HOOK_EVENTS) {
      if (e.class === "gate") assert.notEqual(e.tier, "none", e.name);
      else if (e.name !== "PostToolUse") assert.equal(e.tier, "none", e.name);
    }
    for (const e of HOOK_EVENTS.filter((x) => x.class === "gate")) assert.ok(EXPECTED[e.name], `${e.name} has an expected default in this test`);
  });

  it("non-gate events are neutral in both postures", () => {
    for (const e of HOOK_EVENTS.filter((x) => x.tier === "none")) {
      for (const p of ["advisory", "governed"] as Posture[]) assert.equal(defaultAnswer(e, p), "neutral", e.name);
    }
  });

  it("every governed deny is written in a shape the runtime honours (never an empty body)", () => {
    for (const e of HOOK_EVENTS.filter((x) => defaultAnswer(x, "governed") === "deny")) {
      const body = renderClaudeAnswer(e.name, { kind: "deny", reason: "R" });
      assert.notDeepEqual(body, {}, e.name);
    }
  });

  it("an unknown event is deny-closed, in both postures", () => {
    const row = eventRow("FutureEvent");
    assert.equal(row.tier, "classic");
    assert.equal(defaultAnswer(row, "governed"), "deny");
  });

  it("the installer registers the state-changing lifecycle gates and PostToolUse only when governed", () => {
    assert.deepEqual(guardedEvents("advisory").map((e) => e.name), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "ConfigChange"]);
    assert.deepEqual(eventsFor("2.1.332", "governed"), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "PostToolUse", "TaskCreated", "ConfigChange", "PreModelSwitch"]);
    assert.deepEqual(eventsFor("2.1.197", "governed"), ["PreToolUse", "PermissionRequest", "PostToolUse", "TaskCreated", "ConfigChange"]);
  });
});

describe("posture: the guard's answers per event", () => {
  let dir: string;
  let home: string;
  const guards: Guard[] = [];
  const make = (posture: Posture) => {
    const g = new Guard({ folders: [dir], home, posture, ledger: false });
    guards.push(g);
    return g;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-posture-"));
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-posture-home-"));
  });
  afterEach(() => {
    for (const g of guards.splice(0)) g.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  const hook = (g: Guard, event: string, extra: Record<string, unknown> = {}) => claudeBody(g, { hook_event_name: event, session_id: "s", cwd: dir, ...extra });
  const webFetch = { tool_name: "WebFetch", tool_input: { url: "https://example.com" } };
  const ls = { tool_name: "Bash", tool_input: { command: "ls" } };
  const rmrf = { tool_name: "Bash", tool_input: { command: "rm -rf /" } };

  it("classic: a tool no rule covers gets no opinion when advisory and a deny when governed", async () => {
    assert.deepEqual(await hook(make("advisory"), "PreToolUse", webFetch), {});
    const body = (await hook(make("governed"), "PreToolUse", webFetch)) as { hookSpecificOutput: Record<string, string> };
    assert.equal(body.hookSpecificOutput.permissionDecision, "deny");
    assert.match(body.hookSpecificOutput.permissionDecisionReason, /governed mode.*WebFetch/);
    const pr = (await hook(make("governed"), "PermissionRequest", webFetch)) as { hookSpecificOutput: { decision: { behavior: string } } };
    assert.equal(pr.hookSpecificOutput.decision.behavior, "deny");
  });

  it("governed refuses a tool no rule covers for every agent: pi's webfetch as Claude Code's WebFetch", async () => {
    const webfetch = { toolName: "webfetch", input: { url: "https://example.com" }, cwd: dir };
    assert.deepEqual(await piBody(make("advisory"), webfetch), { block: false });
    const b = await piBody(make("governed"), webfetch);
    assert.equal(b.block, true);
    assert.match(b.reason!, /governed mode.*webfetch/);
    assert.deepEqual(await piBody(make("governed"), { toolName: "bash", input: { command: "ls" }, cwd: dir }), { block: false }, "a covered, harmless call stays allowed");
  });

  it("classic: a call the rules judged harmless stays neutral in both postures; a rule's block is a deny in both", async () => {
    for (const p of ["advisory", "governed"] as Posture[]) {
      assert.deepEqual(await hook(make(p), "PreToolUse", ls), {}, p);
      const b = (await hook(make(p), "PreToolUse", rmrf)) as { hookSpecificOutput: Record<string, string> };
      assert.equal(b.hookSpecificOutput.permissionDecision, "deny", p);
    }
  });

  it("PostToolUse: a rule's block tells the model after the fact; an uncovered tool only when governed", async () => {
    for (const p of ["advisory", "governed"] as Posture[]) {
      assert.deepEqual(await hook(make(p), "PostToolUse", { ...rmrf, tool_response: {} }), { decision: "block", reason: (await hook(make(p), "PostToolUse", rmrf) as { reason: string }).reason }, p);
      assert.deepEqual(await hook(make(p), "PostToolUse", ls), {}, p);
    }
    assert.deepEqual(await hook(make("advisory"), "PostToolUse", webFetch), {});
    assert.equal(((await hook(make("governed"), "PostToolUse", webFetch)) as { decision?: string }).decision, "block");
  });

  it("unknown events are refused in both postures", async () => {
    for (const p of ["advisory", "governed"] as Posture[]) {
      const b = (await hook(make(p), "FutureEvent", ls)) as { hookSpecificOutput: Record<string, string> };
      assert.equal(b.hookSpecificOutput.permissionDecision, "deny", p);
    }
  });

  const lifecycle: [string, unknown][] = [
    ["TaskCreated", { decision: "block" }],
    ["PreModelSwitch", { hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "deny" } }],
    ["ConfigChange", { decision: "block" }],
  ];
  for (const [event, shape] of lifecycle) {
    it(`${event}: neutral when advisory, refused in its honoured shape when governed`, async () => {
      const extra = event === "ConfigChange" ? { source: "user_settings", file_path: path.join(home, ".claude/settings.json") } : {};
      assert.deepEqual(await hook(make("advisory"), event, extra), {});
      const body = (await hook(make("governed"), event, extra)) as Record<string, unknown>;
      const pick = (o: Record<string, unknown>, s: Record<string, unknown>): Record<string, unknown> =>
        Object.fromEntries(Object.keys(s).map((k) => [k, typeof s[k] === "object" ? pick(o[k] as Record<string, unknown>, s[k] as Record<string, unknown>) : o[k]]));
      assert.deepEqual(pick(body, shape as Record<string, unknown>), shape);
    });
  }

  it("ConfigChange from policy settings is never refused (it cannot be)", async () => {
    assert.deepEqual(await hook(make("governed"), "ConfigChange", { source: "policy_settings", file_path: "/etc/claude-code/managed-settings.json" }), {});
  });

  for (const event of ["UserPromptSubmit", "UserPromptExpansion", "PreCompact", "PostToolBatch", "TaskCompleted", "Stop", "SubagentStop", "TeammateIdle", "Elicitation", "ElicitationResult", "WorktreeCreate", "SessionEnd", "Notification"]) {
    it(`${event}: neutral in both postures`, async () => {
      for (const p of ["advisory", "governed"] as Posture[]) assert.deepEqual(await hook(make(p), event, { prompt: "hi", stop_hook_active: false }), {}, `${event} ${p}`);
    });
  }
});
