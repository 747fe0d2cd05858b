// Shared helpers for the tests of the embedded default rule families (not a test file itself).
import * as assert from "node:assert/strict";
import { decideCommand } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import type { Action, RuleSet, Verdict } from "../../src/engine/types";

export const CWD = "/home/dev/plume-factory";
export const HOME = "/home/dev";

export function judge(command: string, rules: RuleSet = defaultRules()): Verdict {
  return decideCommand(command, rules, { cwd: CWD, home: HOME });
}

/** The defaults without the bash patterns of these ids: the control run that shows a rule does the work. */
export function defaultsWithout(...ids: string[]): RuleSet {
  const r = defaultRules();
  for (const id of ids) assert.ok(r.bashToolPatterns.some((p) => p.id === id), `no default rule ${id}`);
  return { ...r, bashToolPatterns: r.bashToolPatterns.filter((p) => !ids.includes(p.id ?? "")) };
}

/**
 * Each command gets `action` from the rule `id`, whose reason names the harm and what to do
 * instead (a parenthesised alternative); without that rule the same command is allowed.
 */
export function assertFamily(id: string, action: Exclude<Action, "allow">, commands: string[], siblings: string[] = []): void {
  const rule = defaultRules().bashToolPatterns.find((p) => p.id === id);
  assert.ok(rule, `no default rule ${id}`);
  assert.equal(rule.ask, action === "ask", `${id} is ${rule.ask ? "ask" : "block"}`);
  assert.match(rule.reason, /\(.+\)$/, `${id}'s reason says what to do instead, in parentheses`);
  // Siblings: rules of the same family that also catch some of the commands.
  const control = defaultsWithout(id, ...siblings);
  for (const command of commands) {
    const v = judge(command);
    assert.equal(v.action, action, `${command}: ${v.action} ${v.reason}`);
    if (siblings.length === 0) {
      assert.equal(v.rule?.id, id, `${command}: decided by ${v.rule?.id ?? v.rule?.text ?? "no rule"}, not ${id}`);
      assert.ok(v.reason.includes(rule.reason), `${command}: the reason the agent reads is the rule's`);
    }
    assert.notEqual(judge(command, defaultsWithout(...siblings)).action, "allow", `${command}: ${id} alone catches it`);
    assert.equal(judge(command, control).action, "allow", `${command}: still refused without ${id}, so the test does not show that ${id} catches it`);
  }
}

/** Each command gets `action` from the rule with this id, or from the path entry written so. */
export function assertDecidedBy(rule: { id?: string; path?: string }, action: Exclude<Action, "allow">, commands: string[]): void {
  for (const command of commands) {
    const v = judge(command);
    assert.equal(v.action, action, `${command}: ${v.action} ${v.reason}`);
    if (rule.id !== undefined) assert.equal(v.rule?.id, rule.id, command);
    if (rule.path !== undefined) assert.equal(v.rule?.text, rule.path, command);
  }
}

/** Each command gets `action` from the rule `id`, and is allowed without that rule (the control). */
export function assertDecidedByAlone(id: string, action: Exclude<Action, "allow">, commands: string[]): void {
  assertDecidedBy({ id }, action, commands);
  for (const command of commands) assert.equal(judge(command, defaultsWithout(id)).action, "allow", `${command}: refused without ${id}`);
}

/** Routine work around the family: allowed by the defaults. */
export function assertAllowed(commands: string[]): void {
  for (const command of commands) {
    const v = judge(command);
    assert.equal(v.action, "allow", `${command}: ${v.action} ${v.reason}`);
  }
}
