// The audit ledger: one JSON line per decision in <folder>/.damage-control/audit.jsonl
// (git-ignored by the folder's own .gitignore). Each line is written with a single append,
// so concurrent writers never interleave; the file rotates at a size limit.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Action } from "../engine/types";
import { workspaceStateDir } from "./state-dir";

export interface LedgerEntry {
  time: string;
  agent: string;
  event: string;
  tool: string;
  /** The command, or the path. Redacted when it could carry a secret (see redactTarget). */
  target: string;
  decision: Action | "allowed-by-user" | "denied-by-user";
  rule?: string;
  reason?: string;
  folder: string;
  session?: string;
}

export const LEDGER_FILE = "audit.jsonl";
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const KEEP = 3;

export class Ledger {
  readonly file: string;
  private size: number;

  constructor(
    folder: string,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {
    this.file = path.join(workspaceStateDir(folder), LEDGER_FILE);
    this.size = sizeOf(this.file);
  }

  append(entry: LedgerEntry): void {
    const line = JSON.stringify(entry) + "\n";
    try {
      fs.appendFileSync(this.file, line, { mode: 0o600 });
      this.size += Buffer.byteLength(line);
      if (this.size >= this.maxBytes) this.rotate();
    } catch {
      // The ledger is a record, not a gate: a full disk must not turn decisions into errors.
    }
  }

  /** The newest entries, newest last, across the current file and the rotated ones. */
  tail(count: number): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    for (const f of [this.file, ...Array.from({ length: KEEP }, (_, i) => `${this.file}.${i + 1}`)]) {
      if (out.length >= count) break;
      let text = "";
      try {
        text = fs.readFileSync(f, "utf8");
      } catch {
        continue;
      }
      const lines = text.split("\n").filter(Boolean);
      const parsed: LedgerEntry[] = [];
      for (const l of lines) {
        try {
          parsed.push(JSON.parse(l));
        } catch {
          /* a torn last line after a crash */
        }
      }
      out.unshift(...parsed.slice(-(count - out.length)));
    }
    return out.slice(-count);
  }

  private rotate(): void {
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

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
