// What the PowerShell walker (analyze.ts) and the readers it hands work to (cmd.ts) share: a
// word's known value, the scope, and the part of the walker a nested reader calls back into.
import type { Sink } from "../shell/sink";
import type { Span } from "../types";
import type { Word } from "./syntax";

/** A word's value when it can be known without running anything. */
export interface Value {
  text?: string;
  word: Word;
}

export interface Scope {
  cwd: string;
  vars: Map<string, string | undefined>;
  functions: Set<string>;
}

/** The walker as a nested reader sees it: where findings go, how paths resolve, the bash hand-off. */
export interface PsHost {
  readonly sink: Sink;
  paths(text: string, scope: Scope): string[];
  bash(text: string, span: Span, scope: Scope): void;
}
