// The panel's feed and pictures, from ledger entries and live decisions: each refusal or ask gets
// a structured outcome here (the webview never parses reason text), and the counts behind the
// bar charts and sparklines. Pure: no `vscode`, no fs.
import { mcpName, toolLabel } from "../../engine/mcp/name";
import type { DecisionRecord } from "../../core/guard";
import type { LedgerEntry } from "../../core/ledger";
import { agentLabel } from "../../engine/agents";
import { ASK_WHY } from "../ask-queue";
import type { FeedEntry, FeedOutcome, PanelStats } from "./messages";

/** The agents' names come from their adapters (one table). */
export { agentLabel };

/** What a recorded decision ended as. A denial's kind is in the reason the ask queue wrote
 *  (ASK_WHY): a timeout or a dismissed dialog is not the human clicking Deny. */
export function outcomeOf(e: Pick<LedgerEntry, "decision" | "reason">): FeedOutcome {
  switch (e.decision) {
    case "block":
      return "refused";
    case "allowed-by-user":
      return "allowed";
    case "ask":
      return "asked";
    case "allow":
      return "let-through";
    case "unconfirmed":
      return "not-confirmed";
    case "kernel-refused":
      return "kernel-refused";
    case "denied-by-user": {
      const why = e.reason ?? "";
      if (why.includes(ASK_WHY.timedOutMark)) return "timed-out";
      if (why.includes(ASK_WHY.dismissed)) return "dismissed";
      if (why.includes(ASK_WHY.repeated)) return "denied-again";
      if (why.includes(ASK_WHY.denied)) return "denied";
      return "not-confirmed";
    }
    default:
      return "refused";
  }
}

/** A refusal: the agent was told no (by a rule, or by an ask that ended without an Allow). */
export const isRefusal = (e: Pick<LedgerEntry, "decision">): boolean => e.decision === "block" || e.decision === "denied-by-user" || e.decision === "unconfirmed";

let nextId = 1;

export function toFeed(d: LedgerEntry | DecisionRecord): FeedEntry {
  return {
    id: `f${nextId++}`,
    time: d.time,
    agent: d.agent,
    agentLabel: agentLabel(d.agent),
    tool: d.tool,
    ...(mcpName(d.tool) && { toolLabel: toolLabel(d.tool) }),
    target: d.target,
    ...(d.rule && { rule: d.rule }),
    outcome: outcomeOf(d),
    ...(d.reason && { reason: d.reason }),
    folder: d.folder,
    headline: headlineOf(d.reason, d.rule),
    ...(d.sandbox && "ran" in d.sandbox && { sandboxed: true }),
    ...(d.kernel && { kernel: d.kernel.map((k) => ({ path: k.path, kind: k.kind, rule: k.rule, ...(k.reason && { reason: k.reason }) })) }),
    ...(d.snapshot && { snapshot: "id" in d.snapshot ? { id: d.snapshot.id, holds: d.snapshot.holds, ...(d.snapshot.remote && { remote: d.snapshot.remote }) } : { notKept: d.snapshot.notKept } }),
  };
}

/** The reason as a person reads it: without "Blocked by Damage Control:", the rule reference and
 *  the instruction to the model. */
export function headlineOf(reason: string | undefined, rule: string | undefined): string {
  if (!reason) return rule ? `rule ${rule}` : "";
  return reason
    .replace(/^(Blocked by Damage Control|Damage Control asks the user to confirm): /, "")
    .replace(/ Do not work around this; report it to the user\.$/, "")
    .replace(/ \(rule: .*?\)(?=;|\.?$)/, "")
    .replace(/\.$/, "");
}

const HOUR = 3_600_000;

/** Refusals per rule and per agent (most first, at most `top`), decisions per 5 min over the last
 *  hour and per hour over the last day. */
export function statsOf(entries: readonly Pick<LedgerEntry, "time" | "agent" | "rule" | "decision">[], now = Date.now(), top = 8): PanelStats {
  const perRule = new Map<string, number>();
  const perAgent = new Map<string, number>();
  const lastHour = new Array<number>(12).fill(0);
  const lastDay = new Array<number>(24).fill(0);
  for (const e of entries) {
    if (isRefusal(e)) {
      const rule = e.rule ?? "(no rule: posture or an undecided call)";
      perRule.set(rule, (perRule.get(rule) ?? 0) + 1);
      const agent = agentLabel(e.agent);
      perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
    }
    const age = now - Date.parse(e.time);
    if (!(age >= 0)) continue;
    if (age < HOUR) lastHour[11 - Math.floor(age / (HOUR / 12))]++;
    if (age < 24 * HOUR) lastDay[23 - Math.floor(age / HOUR)]++;
  }
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, top).map(([label, count]) => ({ label, count }));
  return { perRule: sorted(perRule), perAgent: sorted(perAgent), lastHour, lastDay };
}

/** Refusals and asks per rule text (the structured editor's hit counts); the kernel's refusals are not the rule's hits. */
export function hitsOf(entries: readonly Pick<LedgerEntry, "rule" | "decision">[]): Record<string, number> {
  const hits: Record<string, number> = {};
  for (const e of entries) if (e.rule && e.decision !== "allow" && e.decision !== "kernel-refused") hits[e.rule] = (hits[e.rule] ?? 0) + 1;
  return hits;
}
