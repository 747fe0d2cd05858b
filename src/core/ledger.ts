// The audit ledger: one JSON line per decision in <folder>/.damage-control/audit.jsonl
// (git-ignored by the folder's own .gitignore). Appends are queued and written as whole lines
// by one write at a time, so concurrent writers never interleave; the file rotates at a size limit.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Action } from "../engine/types";
import type { SnapshotNote } from "./snapshots/guard-step";
import type { SandboxNote } from "./sandbox/step";
import type { KernelRefusal } from "../engine/sandbox/refusals";
import { LEDGER_FILE, workspaceStateDir } from "./state-dir";

export interface LedgerEntry {
  time: string;
  agent: string;
  event: string;
  tool: string;
  /** The command, or the path. Redacted when it could carry a secret (see redactTarget). */
  target: string;
  /** "unconfirmed": an ask with nobody to ask (headless, no UI), recorded as such, not as the user's denial. */
  /** "kernel-refused": not a decision of ours; the sandbox's kernel refused a path while an allowed call ran (`kernel`). */
  decision: Action | "allowed-by-user" | "denied-by-user" | "unconfirmed" | "kernel-refused";
  rule?: string;
  /** The layer of the rule (or the exception) that decided: managed, user, workspace, default, policy. */
  layer?: string;
  /** The exception that lifted a refusal, when one did. */
  exception?: string;
  reason?: string;
  /** The snapshot kept before the call ran (id, what it holds, sizes; never content), or why none was. */
  snapshot?: SnapshotNote;
  /** Whether the call ran in our sandbox (and under which policy), or why it could not. */
  sandbox?: SandboxNote;
  /** What the kernel refused inside the sandbox while the call ran: each path, read or write, and the rule behind it. */
  kernel?: KernelRefusal[];
  folder: string;
  session?: string;
}

export { LEDGER_FILE } from "./state-dir";
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const KEEP = 3;
/** How long the lines of a burst of decisions are gathered before one write. */
const GATHER_MS = 5;

export class Ledger {
  readonly file: string;
  private size: number;
  /**
   * Entries waiting for the one write in flight: appends never wait for the disk, and an entry
   * becomes its JSON line only then (off the decision's path, after the answer went out).
   */
  private pending: LedgerEntry[] = [];
  private writing = false;
  /** Lines of a burst are gathered for a few ms and written together: one write, not one per decision. */
  private gather: NodeJS.Timeout | undefined;
  private idle: (() => void)[] = [];
  /** Kept open (append mode) so a decision costs one write, not an open/write/close. */
  private fd: number | undefined;

  constructor(
    folder: string,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {
    this.file = path.join(workspaceStateDir(folder), LEDGER_FILE);
    this.size = sizeOf(this.file);
  }

  append(entry: LedgerEntry): void {
    this.pending.push(entry);
    if (this.writing || this.gather) return;
    // Not unref'd: a process that is about to exit still writes what it decided (≤ 5 ms later).
    this.gather = setTimeout(() => this.writeNow(), GATHER_MS);
  }

  /** Resolves when every line appended so far is on disk. */
  drain(): Promise<void> {
    if (this.gather) this.writeNow();
    if (!this.writing && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private writeNow(): void {
    clearTimeout(this.gather);
    this.gather = undefined;
    if (!this.writing) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) {
      this.writing = false;
      for (const f of this.idle.splice(0)) f();
      return;
    }
    this.writing = true;
    // One write of whole lines, opened O_APPEND: lines from this or another process never interleave.
    const chunk = lines(this.pending);
    this.pending = [];
    try {
      if (this.fd === undefined) {
        this.fd = fs.openSync(this.file, "a", 0o600);
        // A ledger an older version (or a umask) left readable by others becomes the user's alone.
        if ((fs.fstatSync(this.fd).mode & 0o077) !== 0) fs.fchmodSync(this.fd, 0o600);
      }
    } catch {
      // The ledger is a record, not a gate: an unwritable folder must not turn decisions into errors.
      return this.flush();
    }
    fs.write(this.fd, chunk, null, "utf8", (err) => {
      if (!err) {
        this.size += Buffer.byteLength(chunk);
        if (this.size >= this.maxBytes) this.rotate();
      } else {
        this.closeFd();
      }
      this.flush();
    });
  }

  /** The newest entries, newest last, across the current file and the rotated ones. */
  tail(count: number): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    const parse = (lines: string[]) => {
      const parsed: LedgerEntry[] = [];
      for (const l of lines) {
        try {
          parsed.push(JSON.parse(l));
        } catch {
          /* a torn last line after a crash */
        }
      }
      return parsed;
    };
    out.push(...this.pending);
    for (const f of [this.file, ...Array.from({ length: KEEP }, (_, i) => `${this.file}.${i + 1}`)]) {
      if (out.length >= count) break;
      let text = "";
      try {
        text = fs.readFileSync(f, "utf8");
      } catch {
        continue;
      }
      const parsed = parse(text.split("\n").filter(Boolean));
      out.unshift(...parsed.slice(-(count - out.length)));
    }
    return out.slice(-count);
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
    this.fd = undefined;
  }

  /** Closes the file once everything pending is written. */
  async close(): Promise<void> {
    await this.drain();
    this.closeFd();
  }

  private rotate(): void {
    this.closeFd();
    for (let i = KEEP - 1; i >= 1; i--) {
      try {
        fs.renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
      } catch {
        /* not there yet */
      }
    }
    try {
      fs.renameSync(this.file, `${this.file}.1`);
    } catch {
      /* another writer rotated first */
    }
    this.size = sizeOf(this.file);
  }
}

function lines(entries: LedgerEntry[]): string {
  let out = "";
  for (const e of entries) out += JSON.stringify(e) + "\n";
  return out;
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
