// Where judgements are computed. A decision whose time is bounded by construction (vetted rules,
// a small call: engine/inline-bound.ts) is made on the caller's thread: the hop to a worker costs
// more than such a decision (bench: the hop 65–150 µs, the decision 10–30 µs). Every other one is
// made in a worker thread with a time limit, so that a pathological regex in the rules or a
// command built to be expensive cannot hang the caller (the endpoint, the CLI, pi, the VS Code
// window): when the limit is hit the worker is terminated (which stops even a backtracking regex)
// and the call is refused. An inline decision that is slow anyway (a bug in the bound) sends its
// rule set to the worker from then on. There is no unbounded path: without its worker bundle the
// decider refuses. The judging itself is in decider-worker.ts; the extension host loads it from
// the worker's bundle when the endpoint starts, not at activation. Failure never means permission.
import * as fs from "node:fs";
import * as path from "node:path";
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { WireRequest } from "../engine/agents/types";
import type { Posture } from "../engine/events";
import type { JudgeContext, Judgement } from "../engine/judge";
import { decidableInline } from "../engine/inline-bound";
import { blockReason } from "../engine/reason";
import type { RuleSet, Verdict } from "../engine/types";

/** The context without the functions (they cannot cross into a worker); realpath is added there. */
export type PlainContext = Omit<JudgeContext, "realpath" | "readText"> & {
  /** Where the self-protection looks (src/core/self-program.ts): the caller's PATH and state folder. */
  self?: { path?: string; stateDir?: string };
};

/** Judges on the caller's thread (decider-worker.ts judgeHere): only for decisions bounded by construction. */
export type InlineJudge = (req: WireRequest, rules: RuleSet, ctx: PlainContext, posture: Posture) => Judgement;

/**
 * An inline decision slower than this means the bound did not hold for this rule set (it should
 * take milliseconds at most): its later decisions go to the worker, where they can be stopped.
 */
export const INLINE_SLOW_MS = 50;

/** Above this share of busy time in the last window, decisions that could be made inline go to the worker. */
const BUSY_UTILIZATION = 0.85;
const BUSY_WINDOW_MS = 10;

export interface Decider {
  /** Get ready before the first call (start the worker), so an agent's first call does not wait. */
  prepare?(): void;
  judge(req: WireRequest, rules: RuleSet, ctx: PlainContext, posture: Posture): Promise<Judgement>;
  close(): void;
}

/**
 * Messages to and from decider-worker.ts. `rules` rides along the first time an id is used, as a
 * structured clone (its regexes must survive the crossing); every other request and every answer
 * crosses as a JSON string: one string copy instead of a clone of each object in it.
 */
export interface WorkerRequest {
  id: number;
  req: WireRequest;
  rulesId: number;
  rules?: RuleSet;
  ctx: PlainContext;
  posture: Posture;
}
export type WorkerResponse =
  /** The worker has loaded and listens: decision time is counted from here. */
  | { ready: true; id?: undefined }
  | { id: number; ok: true; value: Judgement }
  | { id: number; ok: false; error: string }
  /** The worker does not hold that rule set (it keeps a few): send the request again with it. */
  | { id: number; ok: false; unknownRules: true };

interface Pending {
  message: WorkerRequest;
  rules: RuleSet;
  resolve: (v: Judgement) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** Finds dist/decider-worker.js beside this bundle, or above it (tests run from out/). */
export function locateWorker(from = __dirname): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, "decider-worker.js"), path.join(dir, "dist", "decider-worker.js")]) {
      if (fs.existsSync(candidate)) return candidate;
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/**
 * The worker's heap. Young generation small: a decision allocates little that lives, and V8's
 * default (16 MB semi-spaces) let the endpoint's RSS grow by tens of MB under load for no speed
 * gained; since most decisions are made inline, the worker mostly serves bursts (a busy thread
 * sharing the load), and 2 MB instead of 6 kept the endpoint's RSS after 30,000 decisions at
 * 110–111 MB instead of 110–120 MB (bench section 5, three runs each). Old generation capped at
 * 256 MB: far above what a decision keeps (≈ 10 MB live after 30,000), and a cap at or below
 * that size makes V8 grow the old generation by 1.3× its live size after a full GC instead of up
 * to 4× under a multi-GB limit (heap snapshots after 10,000 and 30,000 decisions hold the same
 * objects; the growth was garbage not yet collected). A decision that would need more is stopped
 * like a slow one: the worker ends, the call is refused.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 256 };

/** How long a new worker may take to load before its first decision's time starts to count. */
const STARTUP_MS = 10_000;

export interface BoundedDeciderOptions {
  /** For a bundle that is also its own worker (the pi extension): tells it to serve decisions. */
  workerData?: unknown;
  /** Where the inline judge comes from; without it every decision goes to the worker. */
  inline?: () => InlineJudge | undefined;
  /** Send decisions to the worker while this thread is nearly saturated (default true; tests turn it off). */
  shareWhenBusy?: boolean;
}

/** How the decisions were made (tests, the bench). */
export interface DeciderStats {
  inline: number;
  worker: number;
  /** The slowest inline decision so far, in ms. */
  slowestInlineMs: number;
}

export class BoundedDecider implements Decider {
  private worker: Worker | undefined;
  /** The current worker said it is ready (loading the engine is not deciding). */
  private ready = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly ruleIds = new WeakMap<RuleSet, number>();
  private nextRulesId = 1;
  /**
   * Rule sets sent to the current worker. Only a hint: the worker may have dropped one since,
   * and then it answers unknownRules and the request is sent again with the rules.
   */
  private sent = new Set<number>();

  readonly stats: DeciderStats = { inline: 0, worker: 0, slowestInlineMs: 0 };
  private inline: InlineJudge | undefined;
  private inlineLoaded = false;
  /** Rule sets whose inline decision was slow: decided in the worker from then on. */
  private readonly slowInline = new WeakSet<RuleSet>();
  private readonly decidedInline = new WeakSet<RuleSet>();

  /**
   * Event-loop utilization at the start of the current window (none after a pause: the window
   * starts with the next call), whether the last window was busy, and when a call last came (mainBusy).
   */
  private elu: EventLoopUtilization | undefined;
  private eluAt = 0;
  private busy = false;
  private lastCallAt = 0;

  private readonly workerData: unknown;
  private readonly loadInline: (() => InlineJudge | undefined) | undefined;
  private readonly shareWhenBusy: boolean;

  constructor(
    private readonly workerFile: string,
    readonly timeoutMs = 2000,
    options: BoundedDeciderOptions = {},
  ) {
    this.workerData = options.workerData;
    this.loadInline = options.inline;
    this.shareWhenBusy = options.shareWhenBusy ?? true;
  }

  prepare(): void {
    this.ensureWorker();
    // One throwaway decision compiles the engine's hot paths in the worker before an agent waits,
    // and one the same on this thread when decisions can be made here.
    const warmUp: WireRequest = { agent: "cli", event: "PreToolUse", call: { tool: "bash", input: { command: "git status && ls -la > /dev/null" } } };
    void this.viaWorker(warmUp, WARM_UP_RULES, { folder: "/", home: "/" }, "advisory").catch(() => undefined);
    // Loading the judge here takes ≈ 30 ms of this thread: after the caller's turn (the
    // extension's activation), not in it. A call before then loads it itself.
    if (this.loadInline) {
      setImmediate(() => {
        if (this.inlineJudge()) void this.judge(warmUp, WARM_UP_RULES, { folder: "/", home: "/" }, "advisory").catch(() => undefined);
      });
    }
  }

  /**
   * Is this thread nearly saturated during a burst of calls (event-loop utilization over the last
   * BUSY_WINDOW_MS, calls less than a window apart)? Then a decision goes to the worker even when
   * it could be made here: the worker's thread runs on another core, so under load the two share
   * the work (ten clients at once: 4.4–4.7× a bare server against 5–6.7× all inline), while one
   * call at a time is made here without the hop.
   */
  private mainBusy(): boolean {
    const now = performance.now();
    const pause = now - this.lastCallAt > BUSY_WINDOW_MS;
    this.lastCallAt = now;
    // A call after a whole window without one is no burst to share, and reading the loop's
    // utilization costs a thread left cold by the pause tens of µs: an agent's calls, seconds
    // apart, never read it.
    if (pause) {
      this.busy = false;
      this.elu = undefined;
    } else if (!this.elu) {
      this.elu = performance.eventLoopUtilization();
      this.eluAt = now;
    } else if (now - this.eluAt > BUSY_WINDOW_MS) {
      const cur = performance.eventLoopUtilization();
      this.busy = performance.eventLoopUtilization(cur, this.elu).utilization > BUSY_UTILIZATION;
      this.elu = cur;
      this.eluAt = now;
    }
    return this.busy;
  }

  /** The inline judge, loaded on first use; undefined when it cannot be loaded (then: the worker). */
  private inlineJudge(): InlineJudge | undefined {
    if (!this.inlineLoaded) {
      this.inlineLoaded = true;
      try {
        this.inline = this.loadInline?.();
      } catch {
        this.inline = undefined;
      }
    }
    return this.inline;
  }

  judge(req: WireRequest, rules: RuleSet, ctx: PlainContext, posture: Posture): Promise<Judgement> {
    const here = this.loadInline && !this.slowInline.has(rules) && !(this.shareWhenBusy && this.mainBusy()) && decidableInline(req, rules) ? this.inlineJudge() : undefined;
    if (!here) return this.viaWorker(req, rules, ctx, posture);
    const started = performance.now();
    try {
      return Promise.resolve(here(req, rules, ctx, posture));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    } finally {
      const ms = performance.now() - started;
      this.stats.inline++;
      if (ms > this.stats.slowestInlineMs) this.stats.slowestInlineMs = ms;
      // A rule set's first decision also compiles it (prefilter, globs): that is not the bound failing.
      const first = !this.decidedInline.has(rules);
      if (first) this.decidedInline.add(rules);
      if (ms > INLINE_SLOW_MS && !first) {
        this.slowInline.add(rules);
        process.emitWarning(`Damage Control: a decision took ${Math.round(ms)} ms on the caller's thread; this rule set is decided in the time-limited worker from now on`);
      }
    }
  }

  private viaWorker(req: WireRequest, rules: RuleSet, ctx: PlainContext, posture: Posture): Promise<Judgement> {
    this.stats.worker++;
    const worker = this.ensureWorker();
    let rulesId = this.ruleIds.get(rules);
    if (rulesId === undefined) this.ruleIds.set(rules, (rulesId = this.nextRulesId++));
    const id = this.nextId++;
    // The raw payload never crosses: the judge reads only the request's own fields.
    const { raw: _raw, ...lean } = req;
    const message: WorkerRequest = { id, req: lean, rulesId, ctx, posture, ...(!this.sent.has(rulesId) && { rules }) };
    this.sent.add(rulesId);
    return new Promise((resolve, reject) => {
      const p: Pending = { message, rules, resolve, reject, timer: this.startTimer(id, this.ready ? 0 : STARTUP_MS) };
      this.pending.set(id, p);
      post(worker, message);
    });
  }

  /** The time limit of one call: `extra` for a worker still loading, then the decision's own. */
  private startTimer(id: number, extra: number): NodeJS.Timeout {
    return setTimeout(() => {
      const p = this.pending.get(id);
      if (!p) return;
      this.pending.delete(id);
      p.reject(new DecisionTimeout(this.timeoutMs));
      // Terminating stops whatever the worker is stuck in; the next call gets a fresh one.
      this.restart();
    }, this.timeoutMs + extra);
  }

  private onResponse(w: Worker, wire: WorkerResponse | string): void {
    const m: WorkerResponse = typeof wire === "string" ? JSON.parse(wire) : wire;
    if ("ready" in m) {
      if (this.worker !== w) return;
      this.ready = true;
      // From now on only deciding counts against the limit.
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.timer = this.startTimer(id, 0);
      }
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    if (!m.ok && "unknownRules" in m) {
      if (p.message.rules) {
        // Sent with the rules and still unknown: the worker is broken, never loop.
        return this.settle(m.id, p, () => p.reject(new Error(`the decision worker lost rule set ${p.message.rulesId}`)));
      }
      p.message = { ...p.message, rules: p.rules };
      post(w, p.message);
      return;
    }
    this.settle(m.id, p, () => (m.ok ? p.resolve(m.value) : p.reject(new Error(m.error))));
  }

  private settle(id: number, p: Pending, done: () => void): void {
    this.pending.delete(id);
    clearTimeout(p.timer);
    done();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.workerFile, { resourceLimits: WORKER_LIMITS, ...(this.workerData !== undefined && { workerData: this.workerData }) });
    w.on("message", (m: WorkerResponse | string) => this.onResponse(w, m));
    const fail = (why: string) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.sent = new Set();
      for (const [id, p] of this.pending) this.settle(id, p, () => p.reject(new Error(why)));
    };
    w.on("error", (e) => fail(`the decision worker failed: ${e.message}`));
    w.on("exit", (code) => fail(`the decision worker exited (${code})`));
    // After the listeners (adding a 'message' listener refs the worker again): an idle decider
    // must never keep its process (pi, the CLI) alive.
    w.unref();
    this.worker = w;
    this.ready = false;
    this.sent = new Set();
    return w;
  }

  private restart(): void {
    const w = this.worker;
    this.worker = undefined;
    this.ready = false;
    this.sent = new Set();
    void w?.terminate();
  }

  close(): void {
    this.restart();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}

/** A request without rules as a JSON string; one with rules (first use of a rule set) as an object. */
function post(w: Worker, message: WorkerRequest): void {
  w.postMessage(message.rules ? message : JSON.stringify(message));
}

const WARM_UP_RULES: RuleSet = { bashToolPatterns: [], zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [] };

/** workerData that makes a bundle act as a decider worker (see src/pi/extension.ts). */
export const DECIDER_WORKER_DATA = { role: "damage-control-decider" } as const;

export function isDeciderWorkerData(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { role?: unknown }).role === DECIDER_WORKER_DATA.role;
}

export class DecisionTimeout extends Error {
  constructor(readonly ms: number) {
    super(`deciding took longer than ${ms} ms (a rule or the command is too expensive to check)`);
  }
}

/** What the agent reads when a decision could not be made: a refusal, never a pass. */
export function undecidedVerdict(e: unknown): Verdict {
  const why = e instanceof DecisionTimeout ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
  return { action: "block", reason: blockReason(`Damage Control could not decide (${why}), and it never lets a call through undecided`) };
}

/** The decider every caller uses: the bounded worker. Without its bundle every call is refused. */
export function boundedDecider(timeoutMs = 2000): Decider {
  const file = locateWorker();
  if (file) return new BoundedDecider(file, timeoutMs, { inline: () => inlineJudgeOf(file) });
  process.emitWarning("Damage Control: dist/decider-worker.js is missing; every call is refused until it is there");
  return refusingDecider("the decision worker (decider-worker.js) is missing from this installation");
}

/**
 * The worker's bundle also exports its judge (decider-worker-main.ts): loaded on this thread only
 * for the decisions that are bounded by construction. A bundle without it: every call to the worker.
 */
function inlineJudgeOf(file: string): InlineJudge | undefined {
  // A run-time path: the bundle is loaded as it is shipped, not bundled into the caller.
  const loaded = (module.require ?? require)(file) as { judgeHere?: InlineJudge };
  return typeof loaded.judgeHere === "function" ? loaded.judgeHere : undefined;
}

/** No worker bundle, no decision: an unbounded decision on the caller's thread is not an option. */
export function refusingDecider(why: string): Decider {
  return { judge: () => Promise.reject(new Error(why)), close() {} };
}
