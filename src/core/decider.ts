// Where judgements are computed: in a worker thread with a time limit, so that a pathological
// regex in the rules or a command built to be expensive cannot hang the caller (the endpoint,
// the CLI, pi, the VS Code window). When the limit is hit the worker is terminated (which stops
// even a backtracking regex) and the call is refused. There is no unbounded path: without its
// worker bundle the decider refuses. The judging itself is in in-process-decider.ts (the worker
// runs it), so the extension host never loads the analysis. Failure never means permission.
import * as fs from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { WireRequest } from "../engine/agents/types";
import type { Posture } from "../engine/events";
import type { JudgeContext, Judgement } from "../engine/judge";
import { blockReason } from "../engine/reason";
import type { RuleSet, Verdict } from "../engine/types";

/** The context without the functions (they cannot cross into a worker); realpath is added there. */
export type PlainContext = Omit<JudgeContext, "realpath" | "readText">;

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
 * gained. Old generation capped at 256 MB: far above what a decision keeps (≈ 10 MB live after
 * 30,000), and a cap at or below that size makes V8 grow the old generation by 1.3× its live size
 * after a full GC instead of up to 4× under a multi-GB limit (heap snapshots after 10,000 and
 * 30,000 decisions hold the same objects; the growth was garbage not yet collected). A decision
 * that would need more is stopped like a slow one: the worker ends, the call is refused.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 256 };

/** How long a new worker may take to load before its first decision's time starts to count. */
const STARTUP_MS = 10_000;

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

  constructor(
    private readonly workerFile: string,
    readonly timeoutMs = 2000,
    /** For a bundle that is also its own worker (the pi extension): tells it to serve decisions. */
    private readonly workerData?: unknown,
  ) {}

  prepare(): void {
    this.ensureWorker();
    // One throwaway decision compiles the engine's hot paths in the worker before an agent waits.
    const warmUp: WireRequest = { agent: "cli", event: "PreToolUse", call: { tool: "bash", input: { command: "git status && ls -la > /dev/null" } } };
    void this.judge(warmUp, WARM_UP_RULES, { folder: "/", home: "/" }, "advisory").catch(() => undefined);
  }

  judge(req: WireRequest, rules: RuleSet, ctx: PlainContext, posture: Posture): Promise<Judgement> {
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
  if (file) return new BoundedDecider(file, timeoutMs);
  process.emitWarning("Damage Control: dist/decider-worker.js is missing; every call is refused until it is there");
  return refusingDecider("the decision worker (decider-worker.js) is missing from this installation");
}

/** No worker bundle, no decision: an unbounded decision on the caller's thread is not an option. */
export function refusingDecider(why: string): Decider {
  return { judge: () => Promise.reject(new Error(why)), close() {} };
}
