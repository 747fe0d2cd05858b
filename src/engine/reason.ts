// Texts the agent reads. A block must name the rule and tell the model not to work around it:
// models that are refused tend to try the same thing another way.
import type { RuleRef } from "./types";

const KIND_LABEL: Record<RuleRef["kind"], string> = {
  bashPattern: "bash pattern",
  zeroAccess: "zero-access path",
  readOnly: "read-only path",
  noDelete: "no-delete path",
  toolName: "tool name pattern",
};

export function describeRule(rule: RuleRef): string {
  const where = rule.line ? `, rules line ${rule.line}` : "";
  // A pattern's id is shown (what a layer names to drop it); a path's id is derived from the path shown.
  const id = (rule.kind === "bashPattern" || rule.kind === "toolName") && rule.id ? ` ${rule.id}` : "";
  // An effect rule (issue 23) is named by its effect, not shown as a regex.
  if (rule.kind === "bashPattern" && rule.effect) return `effect rule${id} "${rule.text}"${where}`;
  return `${KIND_LABEL[rule.kind]}${id} ${rule.kind === "bashPattern" ? `/${rule.text}/` : `"${rule.text}"`}${where}`;
}

export function blockReason(what: string, rule?: RuleRef): string {
  const because = rule ? ` (rule: ${describeRule(rule)})` : "";
  return `Blocked by Damage Control: ${what}${because}. Do not work around this; report it to the user.`;
}

export function askReason(what: string, rule?: RuleRef): string {
  const because = rule ? ` (rule: ${describeRule(rule)})` : "";
  return `Damage Control asks the user to confirm: ${what}${because}.`;
}

/** What an ask becomes when no human can answer (headless, timeout, denial). */
export function unconfirmedReason(askText: string, why: string): string {
  const stripped = askText.replace(/^Damage Control asks the user to confirm: /, "").replace(/\.$/, "");
  return `Blocked by Damage Control: ${stripped}; ${why}. Do not work around this; report it to the user.`;
}
