// Asks are shown one modal at a time. Each request has its own deadline from the moment it
// arrives; none is lost or answered twice. VS Code cannot close a modal from code (measured),
// so when a deadline wins, the dialog stays on screen and a late click must change nothing.
//
// An agent looping on a refused command must not flood the human: a denial is remembered for a
// short window per (agent session, tool, target), and the same call is refused without asking.
import type { AskRequest, AskResult, Asker } from "../core/asker";

/** What the UI layer does: show one modal; resolve with the button (or undefined). */
export type ModalChoice = "Allow" | "Deny" | typeof ALWAYS_ALLOW | undefined;
/** The ask modal's third button (bash pattern asks only): Allow, and write the narrowest exception to the user's rules. */
export const ALWAYS_ALLOW = "Always allow in this folder";
export type ShowModal = (request: AskRequest, deadline: number) => Thenable<ModalChoice>;

export interface AskQueueOptions {
  show: ShowModal;
  timeoutMs: () => number;
  /** Told when a stale dialog is answered after its deadline. */
  onLate?: (request: AskRequest, answer: ModalChoice) => void;
  repeatWindowMs?: number;
  now?: () => number;
}

/** Why an ask ended without an Allow, as the queue words it: the panel's feed classifies a
 *  denial by these (src/views/panel/feed.ts), so they are written in one place. */
export const ASK_WHY = {
  denied: "the user denied it",
  dismissed: "the user dismissed the dialog",
  repeated: "the user already denied this same call moments ago, so it was not asked again",
  timedOut: (seconds: number) => `nobody answered within ${seconds} s (timed out)`,
  timedOutMark: "(timed out)",
} as const;

interface Pending {
  request: AskRequest;
  deadline: number;
  settle: (r: AskResult) => void;
  settled: boolean;
  timer?: NodeJS.Timeout;
}

export class AskQueue implements Asker {
  private readonly queue: Pending[] = [];
  /** The request whose modal is on screen (possibly already timed out). */
  private showing: Pending | undefined;
  private readonly recentDenials = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly o: AskQueueOptions) {
    this.now = o.now ?? Date.now;
  }

  get waiting(): number {
    return this.queue.length + (this.showing ? 1 : 0);
  }

  ask(request: AskRequest): Promise<AskResult> {
    const key = denialKey(request);
    const deniedAt = this.recentDenials.get(key);
    if (deniedAt !== undefined && this.now() - deniedAt < (this.o.repeatWindowMs ?? 60_000)) {
      return Promise.resolve({ approved: false, why: ASK_WHY.repeated });
    }
    return new Promise<AskResult>((resolve) => {
      const timeoutMs = this.o.timeoutMs();
      const p: Pending = { request, deadline: this.now() + timeoutMs, settled: false, settle: () => undefined };
      p.settle = (r) => {
        if (p.settled) return;
        p.settled = true;
        clearTimeout(p.timer);
        if (!r.approved) this.rememberDenial(key);
        resolve(r);
      };
      // The deadline runs whether the request is on screen or still waiting in line.
      p.timer = setTimeout(() => {
        p.settle({ approved: false, why: ASK_WHY.timedOut(Math.round(timeoutMs / 1000)) });
        const i = this.queue.indexOf(p);
        if (i >= 0) this.queue.splice(i, 1);
        // A modal that timed out stays on screen (VS Code cannot close it): the next request waits
        // for it to be dismissed, so the human never faces a stack of dialogs.
      }, timeoutMs);
      this.queue.push(p);
      this.next();
    });
  }

  private next(): void {
    if (this.showing) return;
    const p = this.queue.shift();
    if (!p) return;
    this.showing = p;
    let answer: Thenable<ModalChoice>;
    try {
      answer = this.o.show(p.request, p.deadline);
    } catch (e) {
      answer = Promise.reject(e);
    }
    Promise.resolve(answer).then(
      (choice) => {
        if (p.settled) this.o.onLate?.(p.request, choice);
        else if (choice === ALWAYS_ALLOW && p.request.command) p.settle({ approved: true, why: "", always: true });
        else p.settle(choice === "Allow" || choice === ALWAYS_ALLOW ? { approved: true, why: "" } : { approved: false, why: choice === "Deny" ? ASK_WHY.denied : ASK_WHY.dismissed });
        if (this.showing === p) {
          this.showing = undefined;
          this.next();
        }
      },
      (e) => {
        p.settle({ approved: false, why: `the dialog failed (${(e as Error)?.message ?? e})` });
        if (this.showing === p) {
          this.showing = undefined;
          this.next();
        }
      },
    );
  }

  private rememberDenial(key: string): void {
    this.recentDenials.set(key, this.now());
    if (this.recentDenials.size > 500) {
      const oldest = this.recentDenials.keys().next().value;
      if (oldest !== undefined) this.recentDenials.delete(oldest);
    }
  }
}

function denialKey(r: AskRequest): string {
  return JSON.stringify([r.agent, r.sessionId ?? "", r.tool, r.target, r.folder]);
}
