// Collects what the analysis finds, within the bounds of limits.ts. When a bound is hit, one
// Uncertainty says so (the decider asks): an analysis that stopped early must not look complete.
import type { Access, Span } from "../types";
import { MAX_COMMANDS, MAX_EFFECTS } from "./limits";
import type { GitStateEffect } from "../undo/types";
import type { SecretMark } from "./stdin";
import type { Arg } from "./words";
import type { CommandAnalysis, ExecutedCommand, Narrow, PathEffect, RemoteEffect, Uncertainty } from "./types";

const SCAN_LIMIT = 32;

function effectKey(path: string, access: Access, recursive: boolean, start: number): string {
  return `${access}${recursive ? "r" : ""}\0${path}\0${start}`;
}

export class Sink {
  readonly commands: ExecutedCommand[] = [];
  readonly effects: PathEffect[] = [];
  readonly remote: RemoteEffect[] = [];
  readonly uncertain: Uncertainty[] = [];
  readonly parseErrors: { message: string; span: Span }[] = [];
  /** Git state the commands discard (git-state.ts); empty for almost every command line. */
  private gitStates: GitStateEffect[] | undefined;
  /** Secrets printed that no consumer has taken yet (secret-flow.ts): shown unless consumed. */
  private shown: ({ e: RemoteEffect; mark: Omit<SecretMark, "pending"> } | undefined)[] | undefined;
  /** Variables assigned a secret in this command line (`T=$(gh auth token)`). */
  secretVars: Set<string> | undefined;
  /** Words that carry a secret printed by a command substitution inside them. */
  argSecrets: WeakMap<Arg, SecretMark> | undefined;
  private readonly seenEffects = new Set<string>();
  private readonly seenWhy = new Set<string>();
  private truncated = false;

  /** `at`: insert at this index (a wrapper is listed before the command it wraps). */
  command(c: ExecutedCommand, at?: number): void {
    if (this.commands.length >= MAX_COMMANDS) return this.overflow("executed commands", c.span);
    if (at === undefined || at >= this.commands.length) this.commands.push(c);
    else this.commands.splice(at, 0, c);
  }

  effect(path: string, access: Access, recursive: boolean, span: Span, via: string, narrow?: Narrow): void {
    // The same effect at the same place is recorded once (the wider of the two: a narrowing to
    // file kinds holds only when every spelling of it has one). A command line has a few effects:
    // they are compared one by one; past SCAN_LIMIT a key set takes over.
    if (this.effects.length < SCAN_LIMIT) {
      for (const e of this.effects) {
        if (e.path === path && e.access === access && e.recursive === recursive && e.span.start === span.start) {
          if (!narrow) {
            delete e.only;
            delete e.reformat;
          }
          return;
        }
      }
    } else {
      if (this.seenEffects.size === 0) for (const e of this.effects) this.seenEffects.add(effectKey(e.path, e.access, e.recursive, e.span.start));
      const key = effectKey(path, access, recursive, span.start);
      if (this.seenEffects.has(key)) return;
      if (this.effects.length >= MAX_EFFECTS) return this.overflow("file effects", span);
      this.seenEffects.add(key);
    }
    this.effects.push(recursive && narrow ? { path, access, recursive, span, via, only: narrow.only, ...(narrow.reformat && { reformat: true }) } : { path, access, recursive, span, via });
  }

  remoteEffect(e: RemoteEffect): void {
    // The same effect at the same place once (a wrapper and its command are one invocation).
    for (const x of this.remote) if (x.effect === e.effect && x.target === e.target && x.span.start === e.span.start && x.resource === e.resource) return;
    if (this.remote.length >= MAX_EFFECTS) return this.overflow("remote effects", e.span);
    this.remote.push(e);
  }

  /** A secret printed: shown to the agent unless a consumer takes it (consume). Returns the mark to pass along. */
  show(e: RemoteEffect, mark: Omit<SecretMark, "pending">): SecretMark {
    this.shown ??= [];
    this.shown.push({ e, mark });
    return { ...mark, pending: this.shown.length - 1 };
  }

  /** The secret went into a program, a file or a word, not to the agent. */
  consume(mark: SecretMark | undefined): void {
    if (mark?.pending !== undefined && this.shown) this.shown[mark.pending] = undefined;
  }

  /** How many secrets were printed so far (a command substitution consumes those printed inside it). */
  shownCount(): number {
    return this.shown?.length ?? 0;
  }

  /** Consumes what was printed since `from`; the first such secret, for the word it becomes. */
  consumeSince(from: number): SecretMark | undefined {
    let first: SecretMark | undefined;
    for (let i = from; i < (this.shown?.length ?? 0); i++) {
      const x = this.shown![i];
      if (x === undefined) continue;
      first ??= x.mark;
      this.shown![i] = undefined;
    }
    return first;
  }

  uncertainty(why: string, span: Span, target?: Access, via?: string): void {
    const key = `${why}\0${span.start}`;
    if (this.seenWhy.has(key)) return;
    this.seenWhy.add(key);
    this.uncertain.push({ why, span, ...(target && { target }), ...(via !== undefined && { via }) });
  }

  gitState(e: GitStateEffect): void {
    (this.gitStates ??= []).push(e);
  }

  parseError(message: string, span: Span): void {
    this.parseErrors.push({ message, span });
  }

  private overflow(what: string, span: Span): void {
    if (this.truncated) return;
    this.truncated = true;
    this.uncertain.push({ why: `the command has too many ${what} to analyse completely`, span });
  }

  result(): CommandAnalysis {
    for (const x of this.shown ?? []) if (x) this.remoteEffect(x.e);
    this.shown = undefined;
    return { commands: this.commands, effects: this.effects, remote: this.remote, uncertain: this.uncertain, parseErrors: this.parseErrors, ...(this.gitStates && { gitState: this.gitStates }) };
  }
}
