// judge(request, rules, ctx, posture): every decision Damage Control makes, for every agent.
// The event's row in the table (events.ts) says what is judged; the rules judge the tool call
// (decide.ts); the posture says what the rules cannot vouch for gets. Pure: asking a human,
// the ledger and the wire shape are the caller's steps.
import type { WireRequest } from "./agents/types";
import { judgeConfigChange, type ConfigChangeFacts } from "./config-change";
import { decide, type Seen } from "./decide";
import { destroysOf } from "./undo/destroys";
import type { Destroys } from "./undo/types";
import { kernelAnswers, type KernelReach } from "./sandbox/kernel-answers";
import { toolNameVerdict } from "./mcp/tool-rules";
import { defaultAnswer, eventRow, type HookEvent, type Posture } from "./events";
import { blockReason } from "./reason";
import { mcpName } from "./mcp/name";
import { describeTarget, normalizeToolCall, type ToolCall } from "./toolcall";
import type { Agent, DecideContext, RuleSet, Verdict } from "./types";

export interface JudgeContext extends Omit<DecideContext, "cwd"> {
  /** The guarded folder: the cwd when the request carries no absolute one. */
  folder: string;
  /** ConfigChange only: what the core read about the changed settings file. */
  config?: ConfigChangeFacts;
  /** Set only when this call, if it runs, certainly runs in the kernel sandbox: what that enforces. */
  kernel?: KernelReach;
}

/**
 * neutral: no opinion, and nothing to record (an event the rules do not judge, a harmless
 * PostToolUse). verdict: what the rules (or the posture) say, to ask about, answer and record.
 */
export type Judgement =
  | { kind: "neutral" }
  | {
      kind: "verdict";
      verdict: Verdict;
      tool: string;
      target: string;
      /** What the call would destroy if it ran (not for a refusal): what the snapshot step keeps. */
      destroys?: Destroys;
      /** The command line as the agent sent it (bash/PowerShell), for the snapshot's manifest. */
      command?: string;
      /** An ask the kernel sandbox answers (ctx.kernel): what it was about. The caller lets the
       * call run without a question only if it does run it sandboxed (src/core/sandbox/step.ts). */
      kernelAnswers?: string;
    };

export const NEUTRAL: Judgement = Object.freeze({ kind: "neutral" });

export function judge(req: WireRequest, rules: RuleSet, ctx: JudgeContext, posture: Posture): Judgement {
  const event = eventRow(req.event);
  if (req.malformed !== undefined) return refused(blockReason(req.malformed), req.toolName ?? "", "[malformed]");
  switch (event.enforce) {
    case "neutral":
      return postureDefault(event, posture);
    case "config":
      return judgeConfig(event, ctx.config, posture);
    case "rules":
      return judgeCall(req, event, rules, ctx, posture);
  }
}

function judgeCall(req: WireRequest, event: HookEvent & { known: boolean }, rules: RuleSet, ctx: JudgeContext, posture: Posture): Judgement {
  const tool = req.toolName ?? req.call?.tool ?? "";
  if (!event.known) {
    return refused(blockReason(`the hook event "${event.name}" is unknown to this version of Damage Control, so it is refused until it is classified`), tool, `[${event.name}]`);
  }
  const call = req.call;
  if (!call) return refused(blockReason(`malformed hook request: the ${event.name} input has no tool_name or tool_input`), tool, "[malformed]");
  const cwd = req.cwd && req.cwd.startsWith("/") ? req.cwd : ctx.folder;
  const seen: Seen = {};
  const root = ctx.root ?? ctx.folder;
  let verdict = decide(call, rules, { ...ctx, cwd, root }, engineAgent(req), seen);
  if (verdict.action === "allow" && defaultAnswer(event, posture) === "deny" && normalizeToolCall(call).kind === "other") {
    // Governed: a tool the rules cannot vouch for is refused, not waved through.
    verdict = { action: "block", reason: blockReason(`Damage Control is in governed mode and no rule covers the ${tool} tool, so it is refused (ask your platform team to allow it)`) };
  }
  // The tool already ran: nobody is asked after the fact, and only a refusal is worth a word.
  if (event.name === "PostToolUse" && verdict.action !== "block") return NEUTRAL;
  let judged: Judgement = { kind: "verdict", verdict, tool, target: safeTarget(call, verdict) };
  if (verdict.action === "block" || event.name !== "PreToolUse" || !seen.norm) return judged;
  if (ctx.kernel && verdict.action === "ask" && seen.norm.kind === "bash" && seen.analysis && !toolNameVerdict(rules, seen.norm.tool, () => "total", { ...ctx, cwd, root }).verdict) {
    const answered = kernelAnswers(verdict, seen.norm.command, seen.analysis, rules, { ...ctx, cwd, root }, ctx.kernel);
    if (answered !== undefined) judged = { ...judged, kernelAnswers: answered };
  }
  const destroys = destroysOf(seen.norm, seen.analysis, { cwd, home: ctx.home, root, tmpdir: ctx.tmpdir });
  if (!destroys) return judged;
  const command = seen.norm.kind === "bash" || seen.norm.kind === "powershell" ? seen.norm.command : undefined;
  return { ...judged, destroys, ...(command !== undefined && { command }) };
}

/** An event the rules do not judge: its default in the posture (events table). */
function postureDefault(event: HookEvent, posture: Posture): Judgement {
  if (defaultAnswer(event, posture) !== "deny") return NEUTRAL;
  return refused(blockReason(`Damage Control is in governed mode: ${event.name} is refused by default (${event.note})`), event.name, `[${event.name}]`);
}

/** Tamper protection first; governed refuses every other change Claude Code lets us refuse. */
function judgeConfig(event: HookEvent, facts: ConfigChangeFacts | undefined, posture: Posture): Judgement {
  const verdict = facts ? judgeConfigChange(facts) : undefined;
  if (verdict) return { kind: "verdict", verdict, tool: "ConfigChange", target: facts?.file ?? facts?.source ?? "settings" };
  if (facts?.source === "policy_settings") return NEUTRAL;
  return postureDefault(event, posture);
}

function refused(reason: string, tool: string, target: string): Judgement {
  return { kind: "verdict", verdict: { action: "block", reason }, tool, target };
}

/** Claude Code's paths are used as written; pi and the CLI strip pi's leading "@" mention. */
function engineAgent(req: WireRequest): Agent {
  return req.agent === "pi" || req.agent === "cli" ? req.agent : "claude";
}

/**
 * The target as logged and shown. A bash command refused for a zero-access path may carry the
 * secret itself (`echo KEY=… >> .env`), so only the part that matched is kept.
 */
function safeTarget(call: ToolCall, verdict: Verdict): string {
  // An MCP call's command or SQL may carry it too (`cmd: echo KEY=… >> .env`).
  if (verdict.rule?.kind === "zeroAccess" && (call.tool.toLowerCase() === "bash" || mcpName(call.tool))) {
    return `[command touching a zero-access path: ${verdict.match?.text.slice(0, 200) ?? "redacted"}]`;
  }
  const target = describeTarget(call);
  return target.length > 2000 ? target.slice(0, 2000) + "…" : target;
}
