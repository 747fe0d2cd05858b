// Where verdicts are computed. In-process for short-lived callers (the command hook, the pi
// fallback); in a worker thread with a time limit for the long-running endpoint, so that a
// pathological regex in the rules or a command built to be expensive cannot hang it: when the
// limit is hit the worker is terminated (which stops even a backtracking regex) and the call is
// refused. Failure never means permission.
import * as fs from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { judgeClaudeHook, type ClaudeJudgement } from "../engine/claude-hook";
import { decide } from "../engine/decide";
import { blockReason } from "../engine/reason";
import type { ToolCall } from "../engine/toolcall";
import type { DecideContext, RuleSet, Verdict } from "../engine/types";

/** The context without the functions (they cannot cross into a worker); realpath is added there. */
export type PlainContext = Omit<DecideContext, "realpath">;

export interface Decider {
  /** Get ready before the first call (start the worker), so an agent's first call does not wait. */
  prepare?(): void;
  judgeClaude(payload: unknown, rules: RuleSet, ctx: PlainContext & { fallbackCwd: string }): Promise<ClaudeJudgement>;
  decide(call: ToolCall, rules: RuleSet, ctx: PlainContext, agent: "claude" | "pi" | "cli"): Promise<Verdict>;
  close(): void;
}

export function existingRealpath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    // The file may not exist yet (a write): resolve its folder instead.
    try {
      return path.join(fs.realpathSync.native(path.dirname(p)), path.basename(p));
    } catch {
      return undefined;
    }
  }
}

/**
 * Test seam for the fail-closed matrix: with DAMAGE_CONTROL_TEST_FAULT=throw in the environment,
 * the engine throws on any input that contains DC_INJECT_FAULT. It can only turn a decision into
 * an error, and an error is a refusal.
 */
export function injectedFault(input: unknown): void {
  if (process.env.DAMAGE_CONTROL_TEST_FAULT === "throw" && JSON.stringify(input ?? null).includes("DC_INJECT_FAULT")) {
    throw new Error("injected engine fault (DAMAGE_CONTROL_TEST_FAULT)");
  }
}

export const inProcessDecider: Decider = {
  async judgeClaude(payload, rules, ctx) {
    injectedFault(payload);
    return judgeClaudeHook(payload, rules, { ...ctx, realpath: existingRealpath });
  },
  async decide(call, rules, ctx, agent) {
    injectedFault(call);
    return decide(call, rules, { ...ctx, realpath: existingRealpath }, agent);
  },
  close() {},
};

/** Messages to and from decider-worker.ts. */
export type WorkerRequest =
  | { id: number; op: "claude"; payload: unknown; rulesId: number; rules?: RuleSet; ctx: PlainContext & { fallbackCwd: string } }
  | { id: number; op: "decide"; call: ToolCall; agent: "claude" | "pi" | "cli"; rulesId: number; rules?: RuleSet; ctx: PlainContext };
/** A request without the fields call() fills in (distributes over the union). */
type RequestBody = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, "id" | "rulesId" | "rules"> : never) : never;
export type WorkerResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

interface Pending {
  resolve: (v: unknown) => void;
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

export class BoundedDecider implements Decider {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly ruleIds = new WeakMap<RuleSet, number>();
  private nextRulesId = 1;
  /** Rule sets the current worker already holds. */
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
    void this.decide({ tool: "bash", input: { command: "git status && ls -la > /dev/null" } }, WARM_UP_RULES, { cwd: "/", home: "/" }, "cli").catch(() => undefined);
  }

  async judgeClaude(payload: unknown, rules: RuleSet, ctx: PlainContext & { fallbackCwd: string }): Promise<ClaudeJudgement> {
    return (await this.call({ op: "claude", payload, ctx }, rules)) as ClaudeJudgement;
  }

  async decide(call: ToolCall, rules: RuleSet, ctx: PlainContext, agent: "claude" | "pi" | "cli"): Promise<Verdict> {
    return (await this.call({ op: "decide", call, agent, ctx }, rules)) as Verdict;
  }

  private call(req: RequestBody, rules: RuleSet): Promise<unknown> {
    const worker = this.ensureWorker();
    let rulesId = this.ruleIds.get(rules);
    if (rulesId === undefined) this.ruleIds.set(rules, (rulesId = this.nextRulesId++));
    const id = this.nextId++;
    const message = { ...req, id, rulesId, ...(!this.sent.has(rulesId) && { rules }) } as WorkerRequest;
    this.sent.add(rulesId);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new DecisionTimeout(this.timeoutMs));
        // Terminating stops whatever the worker is stuck in; the next call gets a fresh one.
        this.restart();
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage(message);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.workerFile, this.workerData === undefined ? {} : { workerData: this.workerData });
    w.on("message", (m: WorkerResponse) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
    });
    const fail = (why: string) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.sent = new Set();
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new Error(why));
        this.pending.delete(id);
      }
    };
    w.on("error", (e) => fail(`the decision worker failed: ${e.message}`));
    w.on("exit", (code) => fail(`the decision worker exited (${code})`));
    // After the listeners (adding a 'message' listener refs the worker again): an idle decider
    // must never keep its process (pi, the CLI) alive.
    w.unref();
    this.worker = w;
    this.sent = new Set();
    return w;
  }

  private restart(): void {
    const w = this.worker;
    this.worker = undefined;
    this.sent = new Set();
    void w?.terminate();
  }

  close(): void {
    this.restart();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
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

/** The endpoint's decider: the bounded worker when its bundle is there, else in-process. */
export function endpointDecider(timeoutMs = 2000): Decider {
  const file = locateWorker();
  if (file) return new BoundedDecider(file, timeoutMs);
  process.emitWarning("Damage Control: dist/decider-worker.js is missing; deciding in-process without a time limit");
  return inProcessDecider;
}
