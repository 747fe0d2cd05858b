// toolNamePatterns at decision time: each rule whose glob matches the tool's name offers its
// verdict, narrowed by the call's arguments (`unless: filtered`, `when: total`; scope.ts), unless
// a tool exception of its layer or a stronger one lifts it (layers.ts, toolException).
import { askReason, blockReason } from "../reason";
import { toolException } from "../rules/layers";
import type { DecideContext, Exception, RuleRef, RuleSet, Verdict } from "../types";
import { toolGlobMatches } from "./name";
import type { DestroyScope } from "./scope";

export interface ToolNameOutcome {
  verdict?: Verdict;
  /** The exception that lifted a refusal, when one did. */
  lifted?: Exception;
}

export function toolNameVerdict(rules: RuleSet, tool: string, scope: () => DestroyScope, ctx: DecideContext): ToolNameOutcome {
  const out: ToolNameOutcome = {};
  for (const rule of rules.toolNamePatterns ?? []) {
    if (!toolGlobMatches(rule.matcher, tool)) continue;
    if (out.verdict?.action === "block" || (out.verdict && rule.ask)) continue;
    if (rule.unless === "filtered" && scope() === "filtered") continue;
    if (rule.when === "total" && scope() !== "total") continue;
    const e = toolException(rules, rule.layer, tool, ctx);
    if (e) {
      out.lifted ??= e;
      continue;
    }
    const ref: RuleRef = { kind: "toolName", text: rule.tool, reason: rule.reason, ...(rule.range && { line: rule.range.start.line + 1 }), ...(rule.id !== undefined && { id: rule.id }), ...(rule.layer && { layer: rule.layer }) };
    out.verdict = rule.ask ? { action: "ask", reason: askReason(rule.reason, ref), rule: ref } : { action: "block", reason: blockReason(rule.reason, ref), rule: ref };
  }
  return out;
}
