// toolNamePatterns at decision time: each rule whose glob matches the tool's name offers its
// verdict, narrowed by the call's arguments (`unless: filtered`, `when: total`; scope.ts), unless
// a tool exception of its layer or a stronger one lifts it (layers.ts, toolException).
import { askReason, blockReason } from "../reason";
import { toolException } from "../rules/layers";
import type { DecideContext, Exception, RuleRef, RuleSet, Verdict } from "../types";
import { snakeName, toolGlobMatches } from "./name";
import type { DestroyScope } from "./scope";

export interface ToolNameOutcome {
  verdict?: Verdict;
  /** The exception that lifted a refusal, when one did. */
  lifted?: Exception;
}

/** The literal start of a glob, lower-cased (`mcp_` of `mcp_*_delete`): a name without it cannot match. */
const prefixes = new Map<string, string>();
function literalPrefix(glob: string): string {
  let p = prefixes.get(glob);
  if (p === undefined) {
    p = /^[^*?[{\\]*/.exec(glob)![0].toLowerCase();
    if (prefixes.size > 1000) prefixes.clear();
    prefixes.set(glob, p);
  }
  return p;
}

export function toolNameVerdict(rules: RuleSet, tool: string, scope: () => DestroyScope, ctx: DecideContext): ToolNameOutcome {
  const out: ToolNameOutcome = {};
  const lower = tool.toLowerCase();
  // The snake_case form differs from the lower-case one only for camelCase or dashed names.
  let snake: string | undefined = /[A-Z-]/.test(tool) ? undefined : lower;
  for (const rule of rules.toolNamePatterns ?? []) {
    // Most calls are not MCP calls and most globs start with `mcp_`: skip them before the regex.
    const prefix = literalPrefix(rule.tool);
    if (!lower.startsWith(prefix) && !(snake ??= snakeName(tool)).startsWith(prefix)) continue;
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
