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
import { RulesStore, type RulesState } from "./rules-store";
import { addUserCommandException } from "../core/layer-files";
import type { WorkspaceTrust } from "../core/layer-files";

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
  /** rulesPath is the whole policy (`--rules FILE`): no floor, no user or managed layer. */
  policy?: boolean;
  /** How far a workspace rules file that loosens is trusted (default: its additions only). */
  trust?: WorkspaceTrust;
  /** Environment for the layer locations (tests). */
  env?: NodeJS.ProcessEnv;
}

/** One decision, as the UI feed and the ledger see it. */
export interface DecisionRecord extends LedgerEntry {
  action: "allow" | "block" | "ask";
}

export interface PiAnswer {
  block: boolean;
  reason?: string;
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

  constructor(private readonly options: GuardOptions) {
    super();
    if (options.folders.length === 0) throw new Error("a guard needs at least one folder");
    this.home = options.home ?? os.homedir();
    this.asker = options.asker ?? headlessAsker;
    this.decider = options.decider ?? inProcessDecider;
    this.ourHooks = new OurHooksSnapshot(options.folders.map((f) => path.resolve(f)));
    this.stores = options.folders.map((f) => {
      const store = new RulesStore(path.resolve(f), options.rulesPath, { policy: options.policy, trust: options.trust, env: options.env });
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
  async claudeHook(payload: unknown): Promise<HookBody> {
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
      this.record(verdict, { answer: { kind: "deny", reason: verdict.reason }, decision: "block", reason: verdict.reason }, { agent: "claude", tool: typeof p.tool_name === "string" ? p.tool_name : "", target: "[undecided]", folder: store.folder, event: eventName });
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
      agent: "claude",
      tool: call.tool,
      target: safeTarget(call, judgement.verdict),
      folder: store.folder,
      sessionId: judgement.sessionId,
      event: judgement.event.name,
      command: bashCommand(call),
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
      command: bashCommand(call),
    });
    return resolved.answer.kind === "deny" ? { block: true, reason: resolved.reason } : { block: false };
  }

  /** Turns a verdict into an answer, asking a human for an ask; records it. */
  private async resolve(
    verdict: Verdict,
    d: { agent: "claude" | "pi"; tool: string; target: string; folder: string; sessionId?: string; event: string; command?: string },
  ): Promise<Resolved> {
    let resolved: Resolved;
    if (verdict.action === "allow") {
      resolved = { answer: { kind: "neutral" }, decision: "allow", reason: "" };
    } else if (verdict.action === "block") {
      resolved = { answer: { kind: "deny", reason: verdict.reason }, decision: "block", reason: verdict.reason };
    } else {
      this.stats.asks++;
      let result;
      try {
        // Only a bash pattern's ask can be turned into an exception (an exception lifts patterns, nothing else).
        const command = verdict.rule?.kind === "bashPattern" ? d.command : undefined;
        result = await this.asker.ask({ agent: d.agent, tool: d.tool, target: d.target, folder: d.folder, reason: verdict.reason, rule: verdict.rule?.text, sessionId: d.sessionId, ...(command && { command }) });
        if (result.approved && result.always && command) this.alwaysAllow(command, d.folder, verdict);
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

  private record(verdict: Verdict, resolved: Resolved, d: { agent: string; tool: string; target: string; folder: string; sessionId?: string; event: string }): void {
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
      ...(verdict.rule?.layer && { layer: verdict.rule.layer }),
      ...(verdict.exception && { exception: verdict.exception.text, layer: verdict.exception.layer }),
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

  /** "Always allow in this folder": the narrowest exception, in the user's layer (never the workspace file). */
  private alwaysAllow(command: string, folder: string, verdict: Verdict): void {
    try {
      addUserCommandException(command, folder, `allowed from the ask dialog (${verdict.rule?.reason ?? "ask"}) on ${new Date().toISOString().slice(0, 10)}`, this.options.env);
      this.storeFor(folder).reload();
    } catch (e) {
      this.emit("warning", `the exception could not be written: ${(e as Error).message}`);
    }
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

/** The command of a bash call, else undefined. */
function bashCommand(call: { tool: string; input: unknown }): string | undefined {
  const input = call.input as { command?: unknown } | null;
  return call.tool.toLowerCase() === "bash" && typeof input?.command === "string" ? input.command : undefined;
}
