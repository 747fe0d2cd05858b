// Words as the program will receive them. A word is evaluated once into an Arg: its static value
// (quotes and escapes removed, known variables and `~` substituted) with the original offset of
// every character, or the reason it cannot be known (a `$VAR` never assigned, a `$( )`).
// Nested scripts found in the word (`$( )`, backticks, `<( )`) are handed back: they run whether
// or not the word itself is data.
import { forEachChild, type HereDocBody, type ParsedScript, type SyntaxNode, type Word, type WordPart } from "./unbash";
import type { Span } from "../types";
import { CodeBuilder, offsetAt, sliceCode, spanIn, type Code } from "./code";
import type { Scope, Sym } from "./scope";

export interface Arg {
  /** The value the program receives, when it is known statically (may contain a placeholder `{}`). */
  value?: string;
  /** How the word is shown in normalized command text: unquoted, unknown expansions as written. */
  text: string;
  span: Span;
  /** The word unquoted, with original offsets, for arguments run as code; unknown expansions stay as written. */
  code?: Code;
  /** Unquoted glob characters (or braces) in the value: names several paths. */
  glob?: boolean;
  /** Stands for some path at or below these absolute directories (find's `{}`, an xargs item). */
  under?: string[];
  /** As a path, the value is not known statically. */
  unknown?: boolean;
  /** A process substitution `<( )`: a pipe, not a file. */
  pipe?: boolean;
}

export interface NestedScript {
  script: ParsedScript;
  /** Where the script's positions point: the original text (via `code`) or a decoded backtick body. */
  code: Code;
  /** Process substitutions and command substitutions run in a subshell. */
  kind: "command" | "process";
}

/** Is this arg a path whose value is known? */
export function known(a: Arg): a is Arg & { value: string } {
  return a.value !== undefined && !a.unknown && !a.under;
}

/** An argument that did not come from a word of the command (an xargs item, a split `env -S`). */
export function syntheticArg(value: string, span: Span, code?: Code): Arg {
  return { value, text: value, span, code: code ?? { text: value, base: span.start } };
}

export function symArg(sym: Sym, text: string, span: Span): Arg {
  if (sym.kind === "literal") return syntheticArg(sym.value, span, sym.code);
  if (sym.kind === "under") return { text, span, under: sym.dirs };
  return { text, span, unknown: true };
}

/**
 * Evaluates `word`, whose positions index `src` (the code it was parsed from).
 * `nested` receives the scripts found inside the word.
 */
export function evalWord(word: Word, src: Code, scope: Scope, nested: NestedScript[]): Arg {
  const span = spanIn(src, word.pos, word.end);
  const b = new CodeBuilder();
  const state = { unknown: false, glob: false, under: undefined as string[] | undefined, pipe: false };
  if (!word.parts) {
    pushUnescaped(b, word.text, word.value, word.pos, src, false);
  } else {
    word.parts.forEach((p, i) => evalPart(p, i === 0, src, scope, nested, b, state));
  }
  // The code keeps unknown expansions as written (`rm $X`), so code run by a shell can be parsed
  // again and report exactly which part is unknown.
  const code = b.build(span.start);
  const value = state.unknown ? undefined : code.text;
  const arg: Arg = { text: value ?? word.value, span, code };
  if (value !== undefined) arg.value = value;
  if (state.unknown) arg.unknown = true;
  if (state.under) {
    arg.under = state.under;
    delete arg.unknown;
  }
  if (state.glob) arg.glob = true;
  if (state.pipe) arg.pipe = true;
  return applyPlaceholders(arg, scope);
}

/** `{}` of find -exec / xargs -I: the whole word is the placeholder, or the word contains it. */
export function applyPlaceholders(arg: Arg, scope: Scope): Arg {
  const ph = scope.placeholders;
  if (!ph || arg.value === undefined) return arg;
  for (const [key, sym] of ph) {
    if (!arg.value.includes(key)) continue;
    if (arg.value === key) {
      if (sym.kind === "literal") return { ...arg, value: sym.value, text: sym.value, code: sym.code ?? arg.code };
      if (sym.kind === "under") return { ...arg, under: sym.dirs, text: arg.value };
      return { ...arg, unknown: true, text: arg.value };
    }
    // Inside a longer word (`sh -c 'rm {}'`): the value keeps `{}` for code that is parsed again
    // (the placeholder is still in scope there); as a path the word is not known.
    if (sym.kind === "literal") {
      const value = arg.value.split(key).join(sym.value);
      return { ...arg, value, text: value, code: { text: value, base: arg.span.start } };
    }
    return { ...arg, unknown: true };
  }
  return arg;
}

interface EvalState {
  unknown: boolean;
  glob: boolean;
  under: string[] | undefined;
  pipe: boolean;
}

function evalPart(p: WordPart, first: boolean, src: Code, scope: Scope, nested: NestedScript[], b: CodeBuilder, st: EvalState): void {
  switch (p.type) {
    case "Literal": {
      // `~` and `~/…` at the start of an unquoted word is the home directory.
      if (first && (p.value === "~" || p.value.startsWith("~/"))) {
        b.push(scope.home, () => offsetAt(src, p.pos));
        pushUnescaped(b, p.text.slice(1), p.value.slice(1), p.pos + 1, src, false);
        return;
      }
      pushUnescaped(b, p.text, p.value, p.pos, src, false);
      return;
    }
    case "SingleQuoted":
      if (!src.offsets) b.pushLinear(p.value, src.base + p.pos + 1);
      else b.push(p.value, (i) => offsetAt(src, p.pos + 1 + i));
      return;
    case "AnsiCQuoted":
      b.push(p.value, (i) => offsetAt(src, Math.min(p.pos + 2 + i, p.end - 2)));
      return;
    case "DoubleQuoted":
    case "LocaleString":
      for (const c of p.parts) {
        if (c.type === "Literal") pushUnescaped(b, c.text, c.value, c.pos, src, true);
        else evalPart(c, false, src, scope, nested, b, st);
      }
      return;
    case "SimpleExpansion":
    case "ParameterExpansion": {
      const name = p.type === "SimpleExpansion" ? p.text.replace(/^\$\{?|\}$/g, "") : p.prefix || p.index || p.operation ? undefined : p.parameter;
      if (p.type === "ParameterExpansion" && p.operation) collectNested(p.operation, src, nested);
      const sym: Sym = name === undefined ? { kind: "unknown" } : scope.get(name);
      if (sym.kind === "literal") b.push(sym.value, () => offsetAt(src, p.pos));
      else {
        if (sym.kind === "under") st.under = [...(st.under ?? []), ...sym.dirs];
        st.unknown = true;
        b.push(p.text, (i) => offsetAt(src, p.pos + i));
      }
      return;
    }
    case "CommandExpansion":
      if (p.script) nested.push({ script: p.script, code: scriptCode(p.script, p.pos, p.end, src), kind: "command" });
      st.unknown = true;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
    case "ProcessSubstitution":
      if (p.script) nested.push({ script: p.script, code: scriptCode(p.script, p.pos, p.end, src), kind: "process" });
      st.unknown = true;
      st.pipe = true;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
    case "ArithmeticExpansion":
      collectNested(p, src, nested);
      st.unknown = true;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
    case "Glob":
    case "ExtendedGlob":
    case "BraceExpansion":
      st.glob = true;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
  }
}

/**
 * Backtick bodies with escaped backticks are re-decoded by unbash, and their positions then index
 * `script.source`: map those approximately onto the backtick span. Others index `src` directly.
 */
export function scriptCode(script: ParsedScript, pos: number, end: number, src: Code): Code {
  if (script.source === undefined) return src;
  const body = script.source;
  const first = pos + 1;
  const last = Math.max(first, end - 2);
  return { text: body, offsets: Array.from(body, (_, i) => offsetAt(src, Math.min(first + i, last))), base: offsetAt(src, first) };
}

/** Command substitutions hidden in arithmetic or parameter operations (`${x:-$(cmd)}`). */
function collectNested(node: SyntaxNode, src: Code, nested: NestedScript[], budget = { n: 200 }): void {
  forEachChild(node, (child) => {
    if (budget.n-- <= 0) return;
    if ((child.type === "CommandExpansion" || child.type === "ArithmeticCommandExpansion" || child.type === "ProcessSubstitution") && child.script) {
      nested.push({ script: child.script, code: scriptCode(child.script, child.pos, child.end, src), kind: "command" });
      return;
    }
    collectNested(child, src, nested, budget);
  });
}

/**
 * Appends the unquoted `value` of a literal whose source is `text` at `pos`, mapping each
 * character to its source offset by replaying the backslash escapes. If the replay does not
 * reproduce `value` (an escape form this does not know), offsets fall back to a linear guess.
 */
function pushUnescaped(b: CodeBuilder, text: string, value: string, pos: number, src: Code, inDouble: boolean): void {
  if (text === value) {
    if (!src.offsets) b.pushLinear(value, src.base + pos);
    else b.push(value, (i) => offsetAt(src, pos + i));
    return;
  }
  let out = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) {
      const n = text[i + 1];
      if (n === "\n") {
        i++;
        continue;
      }
      if (!inDouble || '"\\$`'.includes(n)) {
        out += n;
        at.push(pos + i + 1);
        i++;
        continue;
      }
    }
    out += c;
    at.push(pos + i);
  }
  if (out === value) b.push(value, (i) => offsetAt(src, at[i]));
  else b.push(value, (i) => offsetAt(src, pos + Math.min(i, Math.max(0, text.length - 1))));
}

/** A heredoc body as the command reads it: verbatim when the delimiter is quoted, else expanded. */
export function evalHereDocBody(body: HereDocBody, quoted: boolean, src: Code, scope: Scope, nested: NestedScript[]): Code {
  if (quoted || !body.parts) return sliceCode(src, body.pos, body.end);
  const b = new CodeBuilder();
  const st: EvalState = { unknown: false, glob: false, under: undefined, pipe: false };
  for (const p of body.parts) evalPart(p, false, src, scope, nested, b, st);
  return b.build(offsetAt(src, body.pos));
}
