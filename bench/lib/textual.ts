// The naive textual matcher the corpus README scores as its baseline: each bash pattern tested
// against the raw command string, first match wins; path entries found as plain substrings next
// to a modifying verb. Kept only to measure the engine against, side by side, in the same run.
import { compilePathEntry, pathMatches, resolvePath } from "../../src/engine/paths";
import { normalizeToolCall, type ToolCall } from "../../src/engine/toolcall";
import type { Action, DecideContext, RuleSet } from "../../src/engine/types";

const MODIFY = /(>|\btee\b|\bsed\s+-i|\bmv\b|\brm\b|\bcp\b|\btruncate\b|--in-place)/;
const DELETE = /\b(rm|rmdir|mv|unlink)\b/;

export function textualDecide(call: ToolCall, rules: RuleSet, ctx: DecideContext): Action {
  const norm = normalizeToolCall(call);
  if (norm.kind === "bash") {
    const cmd = norm.command;
    for (const r of rules.bashToolPatterns) if (r.regex.test(cmd)) return r.ask ? "ask" : "block";
    const mentions = (entry: string) => cmd.includes(entry.replace(/^~\//, "").replace(/\/$/, "").replace(/\*/g, ""));
    if (rules.zeroAccessPaths.some((r) => mentions(r.path))) return "block";
    if (MODIFY.test(cmd) && rules.readOnlyPaths.some((r) => mentions(r.path))) return "block";
    if (DELETE.test(cmd) && rules.noDeletePaths.some((r) => mentions(r.path))) return "block";
    return "allow";
  }
  if (norm.kind !== "files") return "allow";
  for (const op of norm.ops) {
    const abs = resolvePath(op.path, ctx);
    if (!abs) continue;
    const hits = (list: RuleSet["zeroAccessPaths"]) => list.some((r) => pathMatches(compilePathEntry(r.path, ctx), abs));
    if (hits(rules.zeroAccessPaths)) return "block";
    if ((op.access === "write" || op.access === "delete") && hits(rules.readOnlyPaths)) return "block";
  }
  return "allow";
}
