// The guard of one set of workspace folders: the rules in force for each, the asker, the
// ledger. Both agent routes come through here, so Claude Code and pi get the same decisions.
//
//   request → judge (engine) → ask a human if the verdict is "ask" → answer → ledger + event
import { EventEmitter } from "node:events";
import * as os from "node:os";
import * as path from "node:path";
import { defaultAnswer, eventRow as eventRowOf, type HookEvent, type Posture } from "../engine/events";
import { blockReason, unconfirmedReason } from "../engine/reason";
import { renderClaudeAnswer, type Answer, type HookBody } from "../engine/render";
import { describeTarget } from "../engine/toolcall";
import type { DecideContext, Verdict } from "../engine/types";
import { headlessAsker, type Asker } from "./asker";
import { judgeConfigChange, OurHooksSnapshot } from "./config-change";
import { existingRealpath, inProcessDecider, undecidedVerdict, type Decider, type PlainContext } from "./decider";
import { Ledger, type LedgerEntry } from "./ledger";
import { callKey, OnceWithin } from "../core/once";
import { copilotCaller } from "../engine/agents/copilot";
import { copilotCliWire } from "../engine/agents/copilot-cli";
import type { AgentWire, WireAnswer } from "../engine/agents/types";
import { isVsCodePayload, vscodeWire } from "../engine/agents/vscode";
import { RulesStore, type RulesState } from "./rules-store";

export interface GuardOptions {
  folders: string[];
  /** Rules file, relative to each folder (or absolute). */
  rulesPath?: string;
  asker?: Asker;
  home?: string;
  /** What an unparseable command gets. */
  onParseError?: "ask" | "block";
  /** Write the audit ledger (default true). */
  ledger?: boolean;
  /** Where verdicts are computed: in-process by default; the endpoint uses a time-bounded worker. */
  decider?: Decider;
  /** advisory (default) or governed: what events and calls the rules say nothing about get. */
  posture?: Posture;
}

/** One decision, as the UI feed and the ledger see it. */
export interface DecisionRecord extends LedgerEntry {
  action: "allow" | "block" | "ask";
}

export interface PiAnswer {
  block: boolean;
  reason?: string;
}

/** What the ledger and the asker are told about one call. */
interface CallInfo {
  agent: string;
  tool: string;
  target: string;
  folder: string;
  sessionId?: string;
  /** The agent's id of this tool call (VS Code, Claude Code): copies of one call share it. */
  toolUseId?: string;
  event: string;
}

interface Resolved {
  answer: Answer;
  decision: LedgerEntry["decision"];
  reason: string;
}

export class Guard extends EventEmitter {
  private readonly stores: RulesStore[];
  private readonly ledgers = new Map<string, Ledger>();
  private asker: Asker;
  private readonly decider: Decider;
  private readonly ourHooks: OurHooksSnapshot;
  readonly home: string;
  readonly stats = { decisions: 0, refusals: 0, asks: 0, since: Date.now() };
  /** Copies of one tool call (two of our hooks saw it) share the first one's answer. */
  private readonly decidedOnce = new OnceWithin<Resolved>();

  constructor(private readonly options: GuardOptions) {
    super();
    if (options.folders.length === 0) throw new Error("a guard needs at least one folder");
    this.home = options.home ?? os.homedir();
    this.asker = options.asker ?? headlessAsker;
    this.decider = options.decider ?? inProcessDecider;
    this.ourHooks = new OurHooksSnapshot(options.folders.map((f) => path.resolve(f)));
    this.stores = options.folders.map((f) => {
      const store = new RulesStore(path.resolve(f), options.rulesPath);
      store.on("change", (state: RulesState) => this.emit("rules", state));
      return store;
    });
  }

  get posture(): Posture {
    return this.options.posture ?? "advisory";
  }

  get folders(): string[] {
    return this.stores.map((s) => s.folder);
  }

  setAsker(asker: Asker): void {
    this.asker = asker;
  }

  watch(): void {
    for (const s of this.stores) s.watch();
  }

  /** Starts what the first decision needs (the decision worker), so no agent call waits for it. */
  prepare(): void {
    this.decider.prepare?.();
  }

  close(): void {
    for (const s of this.stores) s.unwatch();
    this.decider.close();
    for (const l of this.ledgers.values()) void l.close();
  }

  /** The store of the folder that contains `cwd` (the deepest one), else the first folder's. */
  storeFor(cwd: string | undefined): RulesStore {
    let best: RulesStore | undefined;
    if (cwd) {
      for (const s of this.stores) {
        if ((cwd === s.folder || cwd.startsWith(s.folder + "/")) && (!best || s.folder.length > best.folder.length)) best = s;
      }
    }
    return best ?? this.stores[0];
  }

  rulesStates(): RulesState[] {
    return this.stores.map((s) => s.current());
  }

  /** The context for an in-process decision (the panel's "try a command"). */
  contextFor(store: RulesStore, cwd: string | undefined): DecideContext {
    return { ...this.plainContext(store, cwd), realpath: existingRealpath };
  }

  private plainContext(store: RulesStore, cwd: string | undefined): PlainContext {
    return {
      cwd: cwd && cwd.startsWith("/") ? cwd : store.folder,
      home: this.home,
      root: store.folder,
      onParseError: this.options.onParseError ?? "ask",
    };
  }

  /** POST /claude/hook: any Claude Code hook event → the exact body that event honours. */
  async claudeHook(payload: unknown, agent = "claude"): Promise<HookBody> {
    // VS Code's agent runs Claude-format hook files too (chat.useClaudeHooks): its tools are read as VS Code's.
    if (agent === "claude" && isVsCodePayload(payload)) return (await this.agentHook("vscode", payload)).body as HookBody;
    const p = (typeof payload === "object" && payload !== null ? payload : {}) as Record<string, unknown>;
    const cwd = typeof p.cwd === "string" ? p.cwd : undefined;
    const store = this.storeFor(cwd);
    const ctx = this.plainContext(store, cwd);
    const eventName = typeof p.hook_event_name === "string" ? p.hook_event_name : "PreToolUse";
    if (eventName === "ConfigChange") return this.configChange(p, store.folder);
    this.ourHooks.refresh();
    let judgement;
    try {
      judgement = await this.decider.judgeClaude(payload, store.current().rules, { ...ctx, fallbackCwd: store.folder });
    } catch (e) {
      // Failure never means permission: an error or a timeout is a refusal in the event's shape.
      const verdict = undecidedVerdict(e);
      this.record(verdict, { answer: { kind: "deny", reason: verdict.reason }, decision: "block", reason: verdict.reason }, { agent, tool: typeof p.tool_name === "string" ? p.tool_name : "", target: "[undecided]", folder: store.folder, event: eventName });
      return renderClaudeAnswer(eventName, { kind: "deny", reason: verdict.reason });
    }
    if (!judgement.verdict) return this.postureDefault(judgement.event, store.folder, judgement.sessionId);
    const call = { tool: judgement.tool ?? "", input: judgement.input };
    let verdict = judgement.verdict;
    if (verdict.action === "allow" && judgement.covered === false && defaultAnswer(judgement.event, this.posture) === "deny") {
      // Governed: a tool the rules cannot vouch for is refused, not waved through.
      verdict = { action: "block", reason: blockReason(`Damage Control is in governed mode and no rule covers the ${call.tool} tool, so it is refused (ask your platform team to allow it)`) };
    }
    if (judgement.event.name === "PostToolUse") {
      // The tool already ran: nobody is asked after the fact, and only a refusal is worth a word.
      if (verdict.action !== "block") return {};
    }
    const resolved = await this.resolve(verdict, {
      agent,
      tool: call.tool,
      target: safeTarget(call, judgement.verdict),
      folder: store.folder,
      sessionId: judgement.sessionId,
      toolUseId: typeof p.tool_use_id === "string" ? p.tool_use_id : undefined,
      event: judgement.event.name,
    });
    return renderClaudeAnswer(judgement.event.name, resolved.answer);
  }

  /** An event the rules do not judge: its default in the current posture (events table). */
  private postureDefault(event: HookEvent, folder: string, sessionId?: string): HookBody {
    if (defaultAnswer(event, this.posture) !== "deny") return {};
    const reason = blockReason(`Damage Control is in governed mode: ${event.name} is refused by default (${event.note})`);
    this.record({ action: "block", reason }, { answer: { kind: "deny", reason }, decision: "block", reason }, { agent: "claude", tool: event.name, target: `[${event.name}]`, folder, sessionId, event: event.name });
    return renderClaudeAnswer(event.name, { kind: "deny", reason });
  }

  /** Tamper protection: a settings change that would switch the guard off is refused. */
  private configChange(p: Record<string, unknown>, folder: string): HookBody {
    const file = typeof p.file_path === "string" ? p.file_path : undefined;
    const verdict = judgeConfigChange(p, (f) => this.ourHooks.had(f), folder);
    if (!verdict) {
      // Governed: every change Claude Code lets us refuse is refused (policy settings cannot be).
      if (p.source !== "policy_settings") {
        const body = this.postureDefault(eventRowOf("ConfigChange"), folder, typeof p.session_id === "string" ? p.session_id : undefined);
        if (Object.keys(body).length > 0) return body;
      }
      this.ourHooks.forget(file);
      return {};
    }
    this.record(verdict, { answer: { kind: "deny", reason: verdict.reason }, decision: "block", reason: verdict.reason }, { agent: "claude", tool: "ConfigChange", target: file ?? String(p.source ?? "settings"), folder, event: "ConfigChange", sessionId: typeof p.session_id === "string" ? p.session_id : undefined });
    return renderClaudeAnswer("ConfigChange", { kind: "deny", reason: verdict.reason });
  }

  /**
   * POST /hook/<agent> for the wires h3 added (vscode, copilot = VS Code or Copilot CLI by shape).
   * Stop-gap until h1's generic guard.handle: the wire maps the call onto the engine's vocabulary,
   * the Claude path judges it (same rules, ledger, asks), and the wire renders the answer.
   */
  async agentHook(agent: string, payload: unknown): Promise<WireAnswer> {
    const wire: AgentWire = agent === "copilot" ? copilotCaller(payload) : agent === "copilot-cli" ? copilotCliWire : vscodeWire;
    const req = wire.read(payload);
    try {
      if (req.malformed) {
        const reason = blockReason(`malformed hook request: ${req.malformed}`);
        const store = this.storeFor(req.cwd);
        const tool = typeof (req.raw as Record<string, unknown>)?.tool_name === "string" ? String((req.raw as Record<string, unknown>).tool_name) : "";
        this.record({ action: "block", reason }, { answer: { kind: "deny", reason }, decision: "block", reason }, { agent: wire.id, tool, target: "[malformed]", folder: store.folder, event: req.event, sessionId: req.sessionId });
        return wire.render(req, { kind: "deny", reason });
      }
      if (!req.call) return wire.render(req, { kind: "neutral" });
      const raw = (typeof req.raw === "object" && req.raw !== null ? req.raw : {}) as Record<string, unknown>;
      const body = await this.claudeHook(
        {
          hook_event_name: req.event,
          tool_name: req.call.tool,
          tool_input: req.call.input,
          ...(req.cwd && { cwd: req.cwd }),
          ...(req.sessionId && { session_id: req.sessionId }),
          ...(typeof raw.tool_use_id === "string" && { tool_use_id: raw.tool_use_id }),
        },
        wire.id,
      );
      const out = (body.hookSpecificOutput ?? {}) as Record<string, unknown>;
      const reason = typeof out.permissionDecisionReason === "string" ? out.permissionDecisionReason : "";
      const kind = out.permissionDecision;
      const answer: Answer = kind === "deny" || kind === "allow" || kind === "ask" ? { kind, reason } : { kind: "neutral" };
      return wire.render(req, answer);
    } catch (e) {
      // Failure never means permission.
      return wire.render(req, { kind: "deny", reason: blockReason(`Damage Control could not decide (internal error: ${(e as Error).message})`) });
    }
  }

  /** POST /pi/tool-call: {toolName, input, cwd} → {block, reason}. */
  async piToolCall(body: unknown): Promise<PiAnswer> {
    const b = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    if (typeof b.toolName !== "string" || b.toolName === "") {
      return { block: true, reason: blockReason("malformed tool-call request: toolName is missing") };
    }
    const cwd = typeof b.cwd === "string" ? b.cwd : undefined;
    const store = this.storeFor(cwd);
    const call = { tool: b.toolName, input: b.input };
    let verdict: Verdict;
    try {
      verdict = await this.decider.decide(call, store.current().rules, this.plainContext(store, cwd), "pi");
    } catch (e) {
      verdict = undecidedVerdict(e);
    }
    const resolved = await this.resolve(verdict, {
      agent: "pi",
      tool: call.tool,
      target: safeTarget(call, verdict),
      folder: store.folder,
      sessionId: typeof b.sessionId === "string" ? b.sessionId : undefined,
      event: "tool_call",
    });
    return resolved.answer.kind === "deny" ? { block: true, reason: resolved.reason } : { block: false };
  }

  /** Turns a verdict into an answer, asking a human for an ask; records it. */
  private resolve(verdict: Verdict, d: CallInfo): Promise<Resolved> {
    // Copies are recognised by the agent's own id of the call (VS Code and Claude Code send one):
    // without it two calls that look alike (a redacted target) could wrongly share an answer.
    const key = d.toolUseId && d.event === "PreToolUse" ? callKey(d) : undefined;
    return this.decidedOnce.run(key, () => this.resolveOnce(verdict, d)).value;
  }

  private async resolveOnce(verdict: Verdict, d: CallInfo): Promise<Resolved> {
    let resolved: Resolved;
    if (verdict.action === "allow") {
      resolved = { answer: { kind: "neutral" }, decision: "allow", reason: "" };
    } else if (verdict.action === "block") {
      resolved = { answer: { kind: "deny", reason: verdict.reason }, decision: "block", reason: verdict.reason };
    } else {
      this.stats.asks++;
      let result;
      try {
        result = await this.asker.ask({ agent: d.agent, tool: d.tool, target: d.target, folder: d.folder, reason: verdict.reason, rule: verdict.rule?.text, sessionId: d.sessionId });
      } catch (e) {
        result = { approved: false, why: `asking failed (${(e as Error).message})` };
      }
      if (result.approved) {
        // Only a human's Allow ever becomes "allow" for Claude Code.
        resolved = { answer: { kind: "allow", reason: `Allowed by the user in Damage Control: ${verdict.rule?.reason ?? verdict.reason}` }, decision: "allowed-by-user", reason: "" };
      } else {
        const reason = unconfirmedReason(verdict.reason, result.why);
        resolved = { answer: { kind: "deny", reason }, decision: "denied-by-user", reason };
      }
    }
    this.record(verdict, resolved, d);
    return resolved;
  }

  private record(verdict: Verdict, resolved: Resolved, d: CallInfo): void {
    this.stats.decisions++;
    if (resolved.answer.kind === "deny") this.stats.refusals++;
    const entry: DecisionRecord = {
      time: new Date().toISOString(),
      agent: d.agent,
      event: d.event,
      tool: d.tool,
      target: d.target,
      decision: resolved.decision,
      action: verdict.action,
      ...(verdict.rule && { rule: verdict.rule.text }),
      ...(resolved.reason && { reason: resolved.reason }),
      folder: d.folder,
      ...(d.sessionId && { session: d.sessionId }),
    };
    if (this.options.ledger !== false) {
      const { action: _omit, ...line } = entry;
      this.ledgerFor(d.folder).append(line);
    }
    this.emit("decision", entry);
  }

  /** Resolves when every decision so far is written to the ledgers. */
  async drain(): Promise<void> {
    await Promise.all([...this.ledgers.values()].map((l) => l.drain()));
  }

  ledgerFor(folder: string): Ledger {
    let l = this.ledgers.get(folder);
    if (!l) this.ledgers.set(folder, (l = new Ledger(folder)));
    return l;
  }
}

/**
 * The target as logged and shown. A bash command refused for a zero-access path may carry the
 * secret itself (`echo KEY=… >> .env`), so only the part that matched is kept.
 */
function safeTarget(call: { tool: string; input: unknown }, verdict: Verdict): string {
  const target = describeTarget(call);
  if (verdict.rule?.kind === "zeroAccess" && call.tool.toLowerCase() === "bash") {
    return `[command touching a zero-access path: ${verdict.match?.text.slice(0, 200) ?? "redacted"}]`;
  }
  return target.length > 2000 ? target.slice(0, 2000) + "…" : target;
}
