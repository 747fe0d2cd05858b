// The bounds of one snapshot: a deadline and a byte budget. Past either, the snapshot is dropped
// and the call goes on without one ("not kept: too slow" / "too large").
export type NotKeptWhy = "too large" | "too slow";

export class NotKept extends Error {
  constructor(readonly why: NotKeptWhy) {
    super(`not kept: ${why}`);
  }
}

export class Budget {
  private readonly deadline: number;
  private bytes = 0;

  constructor(
    timeMs: number,
    private readonly maxBytes: number,
  ) {
    this.deadline = Date.now() + timeMs;
  }

  /** Milliseconds left (a child process gets this as its timeout). */
  left(): number {
    const ms = this.deadline - Date.now();
    if (ms <= 0) throw new NotKept("too slow");
    return ms;
  }

  spend(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) throw new NotKept("too large");
  }

  get spent(): number {
    return this.bytes;
  }
}
