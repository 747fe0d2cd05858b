// The guard of one set of workspace folders: the rules in force for each, the ledger, the
// bounded decider. Every agent, every route and every command hook comes through handle(), so
// all of them get the same decisions:
//
//   payload → AGENTS[agent].read → judge (engine, in the bounded worker) → ask a human via the
//   caller's asker when the verdict is "ask" → ledger + "decision" event → AGENTS[agent].render
import { EventEmitter } from "node:events";
import * as os from "node:os";
import * as path from "node:path";
import { AGENTS, type AgentId, type WireAnswer, type WireRequest } from "../engine/agents";
import { isObject, str } from "../engine/agents/types";
import { isVsCodePayload } from "../engine/agents/vscode";
import { callKey, OnceWithin } from "./once";
import type { Posture } from "../engine/events";
import type { Judgement } from "../engine/judge";
import { unconfirmedReason } from "../engine/reason";
import type { Answer } from "../engine/render";
import type { ToolCall } from "../engine/toolcall";
import type { Verdict } from "../engine/types";
import { headlessAsker, type Asker } from "./asker";
import { OurHooksSnapshot } from "./config-facts";
import { boundedDecider, undecidedVerdict, type Decider, type PlainContext } from "./decider";
import { Ledger, type LedgerEntry } from "./ledger";
import { redact } from "../engine/redact/redact";
import { RulesStore, type RulesState } from "./rules-store";
import { addUserCommandException, userRulesFile, type WorkspaceTrust } from "./layer-files";
import { keepAfterCall, PendingAfterCall } from "./snapshots/after-call";
import { recoverability, snapshotStep, undoContext, type SnapshotNote } from "./snapshots/guard-step";
import { SnapshotStore } from "./snapshots/store";
import { GuardSandbox, type GuardSandboxOptions, type SandboxNote } from "./sandbox/step";
import type { KernelReach } from "../engine/sandbox/kernel-reach";
import { kernelReason, refusedIn, SandboxedCalls } from "./sandbox/results";
import { TOOL_RESULT } from "../engine/events";
import type { KernelRefusal } from "../engine/sandbox/refusals";
import { userStateDir } from "./state-dir";

export interface GuardOptions {
  folders: string[];
  /** Rules file, relative to each folder (or absolute). */
  rulesPath?: string;
  home?: string;
  /** What an unparseable command gets. */
  onParseError?: "ask" | "block";
  /** A tool with no command, path or URL to judge that no agent's table names as effect-free. */
  unknownTools?: "ask" | "no-opinion";
  /** Write the audit ledger (default true). */
  ledger?: boolean;
  /** Where judgements are computed: the time-bounded worker unless a test says otherwise. */
  decider?: Decider;
  /** advisory (default) or governed: what events and calls the rules say nothing about get. */
  posture?: Posture;
  /** rulesPath is the whole policy (`--rules FILE`): no floor, no user or managed layer. */
  policy?: boolean;
  /** How far a workspace rules file that loosens is trusted (default: its additions only). */
  trust?: WorkspaceTrust;
  /** Environment for the layer locations, the snapshot store and its bounds (tests). */
  env?: NodeJS.ProcessEnv;
  /** Keep a snapshot of what an allowed destructive call destroys (default true). */
  snapshots?: boolean;
  /** Run allowed shell calls of agents without a sandbox of their own in ours (absent: never). */
  sandbox?: GuardSandboxOptions;
}

export interface HandleOptions {
  /** Who answers an ask for this call; without one, nobody can (the ask is refused). */
  asker?: Asker;
}

/** One decision, as the UI feed and the ledger see it. */
export interface DecisionRecord extends LedgerEntry {
  action: "allow" | "block" | "ask";
}

/** A bash call's command, clipped as a target is (a call no rule spoke of carries no secret match). */
const clippedTarget = (command: string) => (command.length > 2000 ? command.slice(0, 2000) + "…" : command);

/** What a record says of the call besides its verdict. */
interface Decided {
  agent: string;
  event: string;
  tool: string;
  target: string;
  folder: string;
  sessionId?: string;
}

interface Resolved {
  answer: Answer;
  decision: LedgerEntry["decision"];
  reason: string;
  snapshot?: SnapshotNote;
  sandbox?: SandboxNote;
  /** What the kernel refused inside the sandbox while the call ran (its post-tool event). */
  kernel?: KernelRefusal[];
}

export class Guard extends EventEmitter {
  private readonly stores: RulesStore[];
  private readonly ledgers = new Map<string, Ledger>();
  private readonly decider: Decider;
  private readonly ourHooks: OurHooksSnapshot;
  readonly home: string;
  readonly stats = { decisions: 0, refusals: 0, asks: 0, since: Date.now() };
  /** Copies of one tool call (two of our hooks saw it) share the first one's answer. */
  private readonly decidedOnce = new OnceWithin<Resolved>();
  private readonly sandbox?: GuardSandbox;
  /** The wrappers handed out, so a post-tool event can tell a sandboxed call's result (sandbox/results.ts). */
  private readonly sandboxed = new SandboxedCalls();

  constructor(private readonly options: GuardOptions) {
    super();
    if (options.folders.length === 0) throw new Error("a guard needs at least one folder");
    this.home = options.home ?? os.homedir();
    this.decider = options.decider ?? boundedDecider();
    if (options.sandbox) this.sandbox = new GuardSandbox(options.sandbox);
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

  /** Answers kept so a copy of a call shares the first one's (bounded; tests and the bench check it). */
  get decidedOnceEntries(): { size: number; bound: number } {
    return { size: this.decidedOnce.size, bound: this.decidedOnce.maxSettled };
  }

  get folders(): string[] {
    return this.stores.map((s) => s.folder);
  }

  /** A long-lived guard: rules files and hook settings followed in the background, off the decisions' path. */
  watch(): void {
    for (const s of this.stores) s.watch();
    this.ourHooks.start();
  }

  /** Starts what the first decision needs (the decision worker), so no agent call waits for it. */
  prepare(): void {
    this.decider.prepare?.();
  }

  close(): void {
    this.recordPending();
    for (const s of this.stores) s.unwatch();
    this.ourHooks.stop();
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

  /** One agent's payload → the answer in that agent's wire shape. Never throws for bad input. */
  async handle(agent: AgentId, payload: unknown, opts: HandleOptions = {}): Promise<WireAnswer> {
    // VS Code's agent also runs Claude-format command hooks (chat.useClaudeHooks): its tools are
    // read as VS Code's, so both copies of the call look the same (and are decided once).
    const wire = agent === "claude" && isVsCodePayload(payload) ? AGENTS.vscode : AGENTS[agent];
    const req = wire.read(payload);
    const store = this.storeFor(req.cwd);
    // A runner agent's post-tool event: the call already ran. Its row (events.ts) is observe-only,
    // so it is answered with no opinion without a trip to the decider; its output is read for
    // what the kernel refused.
    if (req.event === TOOL_RESULT) {
      this.toolResult(req);
      return wire.render(req, { kind: "neutral" });
    }
    const toolUseId = isObject(req.raw) ? str(req.raw.tool_use_id) : undefined;
    if (req.event === "PostToolUse" && toolUseId) this.afterCall(JSON.stringify([req.sessionId ?? "", toolUseId]));
    if (req.calls && req.calls.length > 1) return wire.render(req, await this.handleEach(req, req.calls, store, opts.asker ?? headlessAsker));
    // One call of one command: the only kind the sandbox step rewrites, so the only kind whose ask
    // the kernel may answer (a part of several is never relaxed: handleEach gives no rewrite).
    const judgement = await this.judge(req, store, this.sandbox?.reach(req, store.folder));
    if (judgement.kind === "neutral") return wire.render(req, this.sandboxNeutral(req, store.folder));
    // One tool call, decided once: a copy (same session, same call id, same call) that two of our
    // hooks saw shares the first one's answer, is not asked again and not recorded again.
    const key = toolUseId && req.event === "PreToolUse" ? callKey({ sessionId: req.sessionId, toolUseId, tool: judgement.tool, target: judgement.target, folder: store.folder }) : undefined;
    const resolved = await this.decidedOnce.run(key, () => this.resolve(judgement, req, store.folder, opts.asker ?? headlessAsker)).value;
    // The call's post-tool event (where the agent has one) keeps what the call left beside the snapshot.
    if (key && resolved.snapshot && "id" in resolved.snapshot) this.pendingAfter.remember(JSON.stringify([req.sessionId ?? "", toolUseId]), resolved.snapshot.id);
    return wire.render(req, resolved.answer);
  }

  private readonly pendingAfter = new PendingAfterCall();

  /** A snapshotted call has run: keep its own version of the files (restore then tells it from a later edit). */
  private afterCall(key: string): void {
    const id = this.pendingAfter.take(key);
    if (!id) return;
    try {
      keepAfterCall(new SnapshotStore(this.options.env), id);
    } catch (e) {
      // A safety net's extra, never a reason to hold or fail the agent's call.
      this.emit("warning", `keeping the call's version for snapshot ${id} failed: ${(e as Error).message}`);
    }
  }

  /**
   * A sandboxed call's result: what the kernel refused on the policy's paths becomes a record of
   * its own (the feed shows the path and the rule). Only a command that is one of our wrappers is
   * read; the policy is the folder's as it is now (the rules rarely change within one call).
   */
  private toolResult(req: WireRequest): void {
    const ran = req.result && this.sandboxed.find(req.result.command);
    const sandbox = this.options.sandbox;
    if (!ran || !sandbox) return;
    let refused: KernelRefusal[];
    try {
      refused = refusedIn(req.result!.output, () => sandbox.policy(ran.folder), ran.cwd);
    } catch (e) {
      this.emit("warning", `reading the sandboxed call's output failed: ${(e as Error).message}`);
      return;
    }
    if (refused.length === 0) return;
    const reason = kernelReason(refused);
    this.queue({ action: "allow", reason: "" }, { answer: { kind: "neutral" }, decision: "kernel-refused", reason, sandbox: { ran: "bubblewrap", policy: ran.policy }, kernel: refused }, { agent: req.agent, event: req.event, tool: "bash", target: clippedTarget(ran.command), folder: ran.folder, sessionId: req.sessionId });
  }

  /** A rewritten call: its wrapper is remembered, for its post-tool event. */
  private rememberRun(req: WireRequest, answer: Answer, note: SandboxNote | undefined, folder: string): void {
    const command = bashCommand(req.call);
    if (answer.run === undefined || command === undefined || !note || !("ran" in note) || note.ran !== "bubblewrap") return;
    this.sandboxed.remember(answer.run, { command, policy: note.policy, folder, cwd: req.cwd && req.cwd.startsWith("/") ? req.cwd : folder });
  }

  /**
   * A call the rules say nothing about, through the sandbox step: recorded (the feed shows it)
   * only when it runs sandboxed or is refused for want of a sandbox.
   */
  private sandboxNeutral(req: WireRequest, folder: string): Answer {
    const s = this.sandbox?.step(req, { kind: "neutral" }, folder);
    if (!s) return { kind: "neutral" };
    this.rememberRun(req, s.answer, s.note, folder);
    const command = bashCommand(req.call);
    if (command !== undefined && (s.answer.kind === "deny" || (s.note && "ran" in s.note))) {
      const reason = s.answer.kind === "deny" ? s.answer.reason : "";
      const verdict: Verdict = { action: s.answer.kind === "deny" ? "block" : "allow", reason };
      this.record(verdict, { answer: s.answer, decision: verdict.action, reason, ...(s.note && { sandbox: s.note }) }, { agent: req.agent, event: req.event, tool: "bash", target: clippedTarget(command), folder, sessionId: req.sessionId });
    }
    return s.answer;
  }

  /**
   * One agent call standing for several (WireRequest.calls): each judged like a call of its own.
   * A refusal of any one refuses them all, and is decided before anything is asked; then asks are
   * put one by one, and the first one not approved refuses the rest. Only if every part is
   * allowed does the call go ahead.
   */
  private async handleEach(req: WireRequest, calls: ToolCall[], store: RulesStore, asker: Asker): Promise<Answer> {
    const parts: { sub: WireRequest; j: Extract<Judgement, { kind: "verdict" }> }[] = [];
    for (const call of calls) {
      const sub: WireRequest = { ...req, call, calls: undefined };
      const j = await this.judge(sub, store);
      if (j.kind === "verdict") parts.push({ sub, j });
    }
    const order = (p: (typeof parts)[number]) => (p.j.verdict.action === "block" ? 0 : p.j.verdict.action === "ask" ? 1 : 2);
    let answer: Answer = { kind: "neutral" };
    for (const p of parts.sort((a, b) => order(a) - order(b))) {
      const r = await this.resolve(p.j, p.sub, store.folder, asker);
      if (r.answer.kind === "deny") return r.answer;
      if (r.answer.kind === "allow") answer = r.answer;
    }
    return answer;
  }

  /**
   * What the rules in force for `folder` say of one call (the panel's "Try a command", "Test a
   * Command"): through the same bounded worker as every agent call; nothing is asked or recorded.
   */
  async tryCall(call: ToolCall, folder: string): Promise<Verdict> {
    const req: WireRequest = { agent: "cli", event: "PreToolUse", call, cwd: folder };
    const j = await this.judge(req, this.storeFor(folder));
    return j.kind === "verdict" ? j.verdict : { action: "allow", reason: "" };
  }

  private async judge(req: WireRequest, store: RulesStore, kernel?: KernelReach): Promise<Judgement> {
    this.ourHooks.refresh();
    const ctx: PlainContext = {
      ...(kernel && { kernel }),
      folder: store.folder,
      home: this.home,
      root: store.folder,
      onParseError: this.options.onParseError ?? "ask",
      unknownTools: this.options.unknownTools ?? "no-opinion",
      ...(req.event === "ConfigChange" && { config: this.ourHooks.factsOf(req.raw, store.folder) }),
      // The self-protection's PATH and registry follow the guard's environment (tests set theirs).
      ...(this.options.env && { self: { path: this.options.env.PATH, stateDir: userStateDir(this.options.env) } }),
    };
    let judgement: Judgement;
    try {
      judgement = await this.decider.judge(req, store.current().rules, ctx, this.posture);
    } catch (e) {
      // Failure never means permission: an error or a timeout is a refusal in the event's shape.
      return { kind: "verdict", verdict: undecidedVerdict(e), tool: req.toolName ?? req.event, target: "[undecided]" };
    }
    // An allowed settings change: remember the file as it is now.
    if (judgement.kind === "neutral" && ctx.config) this.ourHooks.forget(ctx.config.file);
    return judgement;
  }

  /** Turns a verdict into an answer, asking a human for an ask; records it. */
  private async resolve(j: Extract<Judgement, { kind: "verdict" }>, req: WireRequest, folder: string, asker: Asker): Promise<Resolved> {
    const { verdict } = j;
    let resolved: Resolved;
    let sandboxed: Resolved | undefined;
    if (verdict.action === "allow") {
      resolved = { answer: { kind: "neutral" }, decision: "allow", reason: "" };
    } else if (verdict.action === "block") {
      resolved = { answer: { kind: "deny", reason: verdict.reason }, decision: "block", reason: verdict.reason };
    } else if ((sandboxed = this.kernelAnswered(j, req, folder))) {
      resolved = sandboxed;
    } else {
      this.stats.asks++;
      let result;
      try {
        // Only a bash pattern's ask can become an exception (an exception lifts patterns, nothing else).
        const command = verdict.rule?.kind === "bashPattern" ? bashCommand(req.call) : undefined;
        const undo = this.options.snapshots === false ? undefined : recoverability(j.destroys, this.options.env);
        result = await asker.ask({ agent: req.agent, tool: j.tool, target: j.target, folder, reason: verdict.reason, rule: verdict.rule?.text, sessionId: req.sessionId, ...(command && { command }), ...(undo && { undo }) });
        if (result.approved && result.always && command) this.alwaysAllow(command, folder, verdict);
      } catch (e) {
        result = { approved: false, why: `asking failed (${(e as Error).message})` };
      }
      if (result.approved) {
        // Only a human's Allow ever becomes "allow".
        resolved = { answer: { kind: "allow", reason: `Allowed by the user in Damage Control: ${verdict.rule?.reason ?? verdict.reason}` }, decision: "allowed-by-user", reason: "" };
      } else {
        const reason = unconfirmedReason(verdict.reason, result.why);
        // Nobody to ask is not the user's Deny: the ledger says which it was.
        resolved = { answer: { kind: "deny", reason }, decision: result.nobody ? "unconfirmed" : "denied-by-user", reason };
      }
    }
    if (this.sandbox && !sandboxed) {
      const s = this.sandbox.step(req, resolved.answer, folder);
      if (s.answer.kind === "deny" && resolved.answer.kind !== "deny") resolved = { answer: s.answer, decision: "block", reason: s.answer.reason };
      else resolved = { ...resolved, answer: s.answer };
      if (s.note) resolved.sandbox = s.note;
      this.rememberRun(req, resolved.answer, s.note, folder);
    }
    // The one place deciding touches the file system: only for a call with a destructive effect
    // that is about to run (allowed, lifted by an exception, approved by a human).
    if (resolved.answer.kind !== "deny" && j.destroys && this.options.snapshots !== false) {
      const cwd = req.cwd && req.cwd.startsWith("/") ? req.cwd : folder;
      const note = snapshotStep(j.destroys, { agent: req.agent, tool: j.tool, command: j.command ?? `${j.tool} ${j.target}`, folder, cwd }, this.options.env);
      if (note) resolved = { ...resolved, snapshot: note, ...("id" in note && { answer: { ...resolved.answer, context: undoContext(note.id, note.holds) } }) };
    }
    this.record(verdict, resolved, { agent: req.agent, event: req.event, tool: j.tool, target: j.target, folder, sessionId: req.sessionId });
    return resolved;
  }

  /**
   * An ask the kernel sandbox answers (issue 34 §6): the call runs without a question only if the
   * sandbox step does rewrite it to run inside; else (undefined) it is asked as before. The record
   * says why it was allowed, and what was not asked.
   */
  private kernelAnswered(j: Extract<Judgement, { kind: "verdict" }>, req: WireRequest, folder: string): Resolved | undefined {
    if (j.kernelAnswers === undefined || !this.sandbox) return undefined;
    const s = this.sandbox.kernelStep(req, folder);
    if (!s?.note || !("ran" in s.note)) return undefined;
    const where = s.note.ran === "claude-code" ? "Claude Code's sandbox (required here)" : "the kernel sandbox";
    const reason = `Allowed without a question because it runs in ${where}, which refuses what was to be asked: ${j.kernelAnswers.replace(/^Damage Control asks the user to confirm: /, "")}`;
    return { answer: s.answer, decision: "allow", reason, sandbox: { ...s.note, instead: j.kernelAnswers } };
  }

  /**
   * Counts a decision at once; its ledger line and "decision" event (the panel's feed, the status
   * bar, telemetry) come right after the answer has gone out, in the order decided: nothing of
   * them is on the agent's wait. drain() and close() write what is pending first.
   */
  private record(verdict: Verdict, resolved: Resolved, d: Decided): void {
    this.stats.decisions++;
    if (resolved.answer.kind === "deny") this.stats.refusals++;
    this.queue(verdict, resolved, d);
  }

  /** A record without a decision of ours behind it (the kernel's refusals) is queued as the others are. */
  private queue(verdict: Verdict, resolved: Resolved, d: Decided): void {
    this.unrecorded.push({ at: Date.now(), verdict, resolved, d });
    if (this.unrecorded.length === 1) setImmediate(() => this.recordPending());
  }

  private readonly unrecorded: { at: number; verdict: Verdict; resolved: Resolved; d: Decided }[] = [];

  private recordPending(): void {
    for (const { at, verdict, resolved, d } of this.unrecorded.splice(0)) {
      // Outside any request now: a failing listener must neither stop the endpoint nor the records after it.
      try {
        this.writeRecord(at, verdict, resolved, d);
      } catch (e) {
        process.emitWarning(`Damage Control: recording a decision failed: ${(e as Error)?.message ?? String(e)}`);
      }
    }
  }

  private writeRecord(at: number, verdict: Verdict, resolved: Resolved, d: Decided): void {
    // Every record (ledger, feed, telemetry) carries the command with its secrets replaced: what
    // is written or shown never holds a token, a password or a key (issue 35).
    const entry: DecisionRecord = {
      time: new Date(at).toISOString(),
      agent: d.agent,
      event: d.event,
      tool: d.tool,
      target: redact(d.target),
      decision: resolved.decision,
      action: verdict.action,
      ...(verdict.rule && { rule: verdict.rule.text }),
      ...(verdict.rule?.layer && { layer: verdict.rule.layer }),
      ...(verdict.exception && { exception: verdict.exception.text, layer: verdict.exception.layer }),
      ...(resolved.reason && { reason: redact(resolved.reason) }),
      ...(resolved.snapshot && { snapshot: resolved.snapshot }),
      ...(resolved.sandbox && { sandbox: resolved.sandbox }),
      ...(resolved.kernel && { rule: resolved.kernel[0]!.rule, kernel: resolved.kernel.map((k) => ({ ...k, path: redact(k.path), ...(k.reason && { reason: redact(k.reason) }) })) }),
      folder: d.folder,
      ...(d.sessionId && { session: d.sessionId }),
    };
    if (this.options.ledger !== false) {
      const { action: _omit, ...line } = entry;
      this.ledgerFor(d.folder).append(line);
    }
    this.emit("decision", entry);
  }

  /** "Always allow in this folder" from the ask dialog: the narrowest exception, in the user's layer. */
  private alwaysAllow(command: string, folder: string, verdict: Verdict): void {
    try {
      this.allowInFolder(command, folder, `allowed from the ask dialog (${verdict.rule?.reason ?? "ask"})`);
    } catch (e) {
      this.emit("warning", `the exception could not be written: ${(e as Error).message}`);
    }
  }

  /**
   * A human's exception for exactly this command in this folder, written to the user's rules file
   * (never the workspace's); the folder's rules are reloaded at once. Returns the file and the id.
   */
  allowInFolder(command: string, folder: string, why: string): { file: string; id: string } {
    const id = addUserCommandException(command, folder, `${why} on ${new Date().toISOString().slice(0, 10)}`, this.options.env);
    this.storeFor(folder).reload();
    return { file: userRulesFile(this.options.env), id };
  }

  /** Resolves when every decision so far is written to the ledgers. */
  async drain(): Promise<void> {
    this.recordPending();
    await Promise.all([...this.ledgers.values()].map((l) => l.drain()));
  }

  ledgerFor(folder: string): Ledger {
    let l = this.ledgers.get(folder);
    if (!l) this.ledgers.set(folder, (l = new Ledger(folder)));
    return l;
  }
}

/** The command of a bash call (engine vocabulary), else undefined. */
function bashCommand(call: ToolCall | undefined): string | undefined {
  const input = call?.input as { command?: unknown } | null | undefined;
  return call && call.tool.toLowerCase() === "bash" && typeof input?.command === "string" ? input.command : undefined;
}
