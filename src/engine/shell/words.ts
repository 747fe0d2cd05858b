// Words as the program will receive them. A word is evaluated once into an Arg: its static value
// (quotes and escapes removed, known variables and `~` substituted) with the original offset of
// every character, or the reason it cannot be known (a `$VAR` never assigned, a `$( )`).
// Nested scripts found in the word (`$( )`, backticks, `<( )`) are handed back: they run whether
// or not the word itself is data.
import { forEachChild, type HereDocBody, type ParsedScript, type SyntaxNode, type Word, type WordPart } from "./unbash";
import type { Span } from "../types";
import { CodeBuilder, offsetAt, sliceCode, spanIn, type Code } from "./code";
import { base64Decode, hexDecode, printfOutput, reverseLines, unescapeC } from "./decode";
import type { Stdin } from "./stdin";
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
  /** With `under`: the name pattern every such path's last segment matches (find's `-name`). */
  named?: string;
  /** As a path, the value is not known statically. */
  unknown?: boolean;
  /** A process substitution `<( )`: a pipe, not a file. */
  pipe?: boolean;
  /** What the process substitution prints, when it is known statically (`<(echo 'rm -rf x')`). */
  output?: Code;
  /** Values the word may take although it is not known (`${X:-.env}` may be `.env`). */
  maybe?: string[];
  /** An unquoted brace expansion (`a{,.bak}`, `{rm,-rf,x}`): the word becomes several words. */
  braces?: boolean;
  /** The word is what this command substitution prints (`$(git ls-files)`), not known statically. */
  printedBy?: NestedScript;
  /** The words an array expansion (`"${a[@]}"`) becomes: the word is replaced by them. */
  words?: Arg[];
}

export interface NestedScript {
  script: ParsedScript;
  /** Where the script's positions point: the original text (via `code`) or a decoded backtick body. */
  code: Code;
  /** Process substitutions and command substitutions run in a subshell. */
  kind: "command" | "process";
  /** What it prints, once walked (for a script of one statement). */
  printed?: Stdin;
  /** A secret it prints (`$(gh auth token)`): the word it becomes carries it (secret-flow.ts). */
  secret?: import("./stdin").SecretMark;
}

/** Is this arg a path whose value is known? */
export function known(a: Arg): a is Arg & { value: string } {
  return a.value !== undefined && !a.unknown && !a.under;
}

/**
 * An Arg with every field set, in evalWord's order: every word the handlers read has one object
 * shape. Words of several shapes (a synthetic item, an option's value, a word) made V8 throw the
 * handlers' optimised code away again and again ("wrong map"); unset fields read as undefined,
 * as absent ones did.
 */
export function shapedArg(f: Partial<Arg> & { text: string; span: Span }): Arg {
  return { value: f.value, text: f.text, span: f.span, code: f.code, glob: f.glob, under: f.under, named: f.named, unknown: f.unknown, pipe: f.pipe, output: f.output, maybe: f.maybe, braces: f.braces, printedBy: f.printedBy, words: f.words };
}

/** An argument that did not come from a word of the command (an xargs item, a split `env -S`). */
export function syntheticArg(value: string, span: Span, code?: Code): Arg {
  return shapedArg({ value, text: value, span, code: code ?? { text: value, base: span.start } });
}

export function symArg(sym: Sym, text: string, span: Span): Arg {
  if (sym.kind === "literal") return syntheticArg(sym.value, span, sym.code);
  if (sym.kind === "under") return shapedArg({ text, span, under: sym.dirs, named: sym.named });
  return shapedArg({ text, span, unknown: true });
}

/**
 * Evaluates `word`, whose positions index `src` (the code it was parsed from).
 * `nested` receives the scripts found inside the word.
 */
export function evalWord(word: Word, src: Code, scope: Scope, nested: NestedScript[]): Arg {
  const span = spanIn(src, word.pos, word.end);
  const b = new CodeBuilder();
  const state: EvalState = { unknown: false, glob: false, under: undefined, pipe: false };
  if (!word.parts) {
    pushUnescaped(b, word.text, word.value, word.pos, src, false);
  } else {
    word.parts.forEach((p, i) => evalPart(p, i === 0, src, scope, nested, b, state));
  }
  // The code keeps unknown expansions as written (`rm $X`), so code run by a shell can be parsed
  // again and report exactly which part is unknown.
  const code = b.build(span.start);
  const value = state.unknown ? undefined : code.text;
  // Every field set, in one order: the words of every command share one object shape.
  const arg: Arg = {
    value,
    text: value ?? word.value,
    span,
    code,
    glob: state.glob || undefined,
    under: state.under,
    // The whole word is a loop variable over a glob's entries (`for f in .e*; do cat "$f"`): their name.
    named: state.under && word.parts && word.parts.length === 1 ? state.named : undefined,
    unknown: (state.unknown && !state.under) || undefined,
    pipe: state.pipe || undefined,
    output: state.output,
    maybe: state.unknown && state.maybe !== undefined && word.parts && word.parts.length === 1 ? [state.maybe] : undefined,
    braces: state.braces || undefined,
    printedBy: state.unknown && onlyPart(word)?.type === "CommandExpansion" ? state.substitution : undefined,
    words: expandedWords(word, state, value)?.map((v) => syntheticArg(v, span)),
  };
  return applyPlaceholders(arg, scope);
}

/** `{}` of find -exec / xargs -I: the whole word is the placeholder, or the word contains it. */
export function applyPlaceholders(arg: Arg, scope: Scope): Arg {
  const ph = scope.placeholders;
  if (!ph || arg.value === undefined) return arg;
  for (const [key, sym] of ph) {
    if (!arg.value.includes(key)) continue;
    if (arg.value === key) {
      if (sym.kind === "literal") return shapedArg({ ...arg, value: sym.value, text: sym.value, code: sym.code ?? arg.code });
      if (sym.kind === "under") return shapedArg({ ...arg, under: sym.dirs, named: sym.named, text: arg.value });
      return shapedArg({ ...arg, unknown: true, text: arg.value });
    }
    // Inside a longer word (`sh -c 'rm {}'`): the value keeps `{}` for code that is parsed again
    // (the placeholder is still in scope there); as a path the word is not known.
    if (sym.kind === "literal") {
      const value = arg.value.split(key).join(sym.value);
      return shapedArg({ ...arg, value, text: value, code: { text: value, base: arg.span.start } });
    }
    return shapedArg({ ...arg, unknown: true });
  }
  return arg;
}

interface EvalState {
  unknown: boolean;
  glob: boolean;
  under: string[] | undefined;
  /** With `under`: the name every such entry matches (a for-loop over `DIR/*.pem`). */
  named?: string;
  pipe: boolean;
  output?: Code;
  maybe?: string;
  braces?: boolean;
  /** The last command substitution whose output is not known statically. */
  substitution?: NestedScript;
  /** The elements of the last array expanded as separate words (`${a[@]}`, unquoted `${a[*]}`). */
  array?: string[];
  /** Inside double quotes (while their parts are evaluated). */
  inQuotes?: boolean;
  /** Where an unquoted `$IFS` stands in the value (a space there): the word is split at those places only. */
  ifsSplits?: number[];
}


/** The words a word becomes: an array's elements (`"${a[@]}"`), or its value split at `$IFS`. */
function expandedWords(word: Word, state: EvalState, value: string | undefined): string[] | undefined {
  if (state.array && onlyPart(word)?.type === "ParameterExpansion") return state.array;
  if (state.ifsSplits && value !== undefined) {
    const words: string[] = [];
    let from = 0;
    for (const at of [...state.ifsSplits, value.length]) {
      if (at > from) words.push(value.slice(from, at));
      from = at + 1;
    }
    return words;
  }
  return undefined;
}

/** The one part a word is, bare or alone in double quotes (`$(cmd)`, `"${a[@]}"`). */
function onlyPart(word: Word): WordPart | undefined {
  const only = word.parts?.length === 1 ? word.parts[0] : undefined;
  return only?.type === "DoubleQuoted" && only.parts.length === 1 ? only.parts[0] : only;
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
    case "LocaleString": {
      const outside = st.inQuotes;
      st.inQuotes = true;
      for (const c of p.parts) {
        if (c.type === "Literal") pushUnescaped(b, c.text, c.value, c.pos, src, true);
        else evalPart(c, false, src, scope, nested, b, st);
      }
      st.inQuotes = outside;
      return;
    }
    case "SimpleExpansion":
    case "ParameterExpansion": {
      // Arrays assigned earlier: `${a[@]}` (and unquoted `${a[*]}`) are its elements as words,
      // `"${a[*]}"` one word of them joined by spaces, `${a[N]}` one element.
      const elements = p.type === "ParameterExpansion" && p.index && !p.prefix && !p.operation ? scope.getArray(p.parameter) : undefined;
      if (elements && p.type === "ParameterExpansion" && p.index) {
        const index = p.index.value;
        if (index === "@" || (index === "*" && !st.inQuotes)) {
          st.array = elements;
          st.unknown = true;
          b.push(p.text, (i) => offsetAt(src, p.pos + i));
          return;
        }
        const value = index === "*" ? elements.join(" ") : /^\d+$/.test(index) ? elements[Number(index)] ?? "" : undefined;
        if (value !== undefined) {
          b.push(value, () => offsetAt(src, p.pos));
          return;
        }
      }
      const name = p.type === "SimpleExpansion" ? p.text.replace(/^\$\{?|\}$/g, "") : p.prefix || p.index || p.operation ? undefined : p.parameter;
      if (p.type === "ParameterExpansion" && p.operation) collectNested(p.operation, src, nested);
      // `${X:-default}` of an unknown X may well be the default: kept as a possible value.
      if (p.type === "ParameterExpansion" && p.operation?.type === "Default" && /^:?[-=]$/.test(p.operation.operator) && !p.prefix && !p.index && scope.get(p.parameter).kind === "unknown") {
        const d = evalWord(p.operation.operand, src, scope, nested);
        if (known(d)) st.maybe = d.value;
      }
      const sym: Sym = name === undefined ? { kind: "unknown" } : scope.get(name);
      // `$IFS` never assigned is space, tab, newline: unquoted, it splits the word there
      // (`rm$IFS-rf$IFS/tmp/x` is three words).
      if (name === "IFS" && !st.inQuotes && (sym.kind === "unknown" || (sym.kind === "literal" && sym.value !== ""))) {
        // An assigned IFS splits on its own characters, so its expansion is a separator too.
        (st.ifsSplits ??= []).push(b.length);
        b.push(" ", () => offsetAt(src, p.pos));
        return;
      }
      if (sym.kind === "literal") b.push(sym.value, () => offsetAt(src, p.pos));
      else {
        if (sym.kind === "under") {
          st.under = [...(st.under ?? []), ...sym.dirs];
          st.named = sym.named;
        }
        st.unknown = true;
        b.push(p.text, (i) => offsetAt(src, p.pos + i));
      }
      return;
    }
    case "CommandExpansion": {
      const entry: NestedScript | undefined = p.script ? { script: p.script, code: scriptCode(p.script, p.pos, p.end, src), kind: "command" } : undefined;
      if (entry) nested.push(entry);
      // Output that static evaluation knows (`$(echo .env)`, `$(printf '\x67it')`, a decoded
      // payload) is the word's value; anything else is only known when the command runs.
      const out = p.script ? staticOutput(p.script, scriptCode(p.script, p.pos, p.end, src), scope) : undefined;
      if (out !== undefined) {
        const v = out.replace(/\n+$/, "");
        const len = Math.max(1, p.end - p.pos);
        b.push(v, (i) => offsetAt(src, p.pos + Math.min(len - 1, Math.floor((i * len) / Math.max(1, v.length)))));
        return;
      }
      st.unknown = true;
      st.substitution = entry;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
    }
    case "ProcessSubstitution": {
      if (p.script) nested.push({ script: p.script, code: scriptCode(p.script, p.pos, p.end, src), kind: "process" });
      const out = p.script ? staticOutput(p.script, scriptCode(p.script, p.pos, p.end, src), scope) : undefined;
      if (out !== undefined) st.output = decodedCode(out, spanIn(src, p.pos, p.end));
      st.unknown = true;
      st.pipe = true;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
    }
    case "ArithmeticExpansion":
      collectNested(p, src, nested);
      st.unknown = true;
      b.push(p.text, (i) => offsetAt(src, p.pos + i));
      return;
    case "Glob":
    case "ExtendedGlob":
    case "BraceExpansion":
      if (p.type === "BraceExpansion") st.braces = true;
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

/** Decoded text mapped onto the span of what produced it (its characters spread over the span). */
export function decodedCode(text: string, span: Span): Code {
  const len = Math.max(1, span.end - span.start);
  return { text, base: span.start, offsets: Array.from(text, (_, i) => span.start + Math.min(len - 1, Math.floor((i * len) / Math.max(1, text.length)))) };
}

/** Programs whose output is computed statically from known arguments and stdin. */
const PURE = new Set(["echo", "printf", "base64", "xxd", "rev", "cat", "tr", "mktemp"]);

/**
 * What a command substitution prints when it is a pipeline of pure text programs with known
 * words (`echo .env`, `echo cm0g… | base64 -d`, `printf '\x72m'`); undefined otherwise.
 */
export function staticOutput(script: ParsedScript, code: Code, scope: Scope): string | undefined {
  if (script.commands.length !== 1) return undefined;
  const node = script.commands[0].command;
  const cmds = node.type === "Pipeline" ? node.commands : [node];
  let input = "";
  for (const c of cmds) {
    if (c.type !== "Command" || !c.name || c.prefix.length || c.suffix.some((x) => x.type !== "Word")) return undefined;
    const words = [c.name, ...(c.suffix as Word[])].map((w) => evalWord(w, code, scope, []));
    if (!words.every(known)) return undefined;
    const [name, ...args] = words.map((w) => w.value!);
    if (!PURE.has(name)) return undefined;
    const out = pureOutput(name, args, input);
    if (out === undefined) return undefined;
    input = out;
  }
  return input;
}

export function pureOutput(name: string, args: readonly string[], stdin: string): string | undefined {
  switch (name) {
    case "echo": {
      let i = 0;
      let newline = true;
      let escapes = false;
      while (i < args.length && /^-[neE]+$/.test(args[i])) {
        if (args[i].includes("n")) newline = false;
        if (args[i].includes("e")) escapes = true;
        i++;
      }
      const t = args.slice(i).join(" ");
      return (escapes ? unescapeC(t) : t) + (newline ? "\n" : "");
    }
    case "printf":
      return args.length && !args[0].startsWith("-") ? printfOutput(args[0], args.slice(1)) : undefined;
    case "base64":
      return args.length > 0 && args.every((a) => /^(-d|--decode|-D|-i|--ignore-garbage)$/.test(a)) && args.some((a) => a !== "-i" && a !== "--ignore-garbage") ? base64Decode(stdin) : undefined;
    case "xxd":
      return args.some((a) => /^-[a-z]*r/.test(a)) && args.some((a) => /^-[a-z]*p/.test(a) || a === "-ps" || a === "-plain") && args.every((a) => a.startsWith("-")) ? hexDecode(stdin) : undefined;
    // A fresh temporary name below the temp dir (issue 36: removing it later is everyday scratch).
    case "mktemp":
      return args.some((a) => !a.startsWith("-")) || args.some((a) => /^-(p|-tmpdir)/.test(a)) ? undefined : "/tmp/tmp.dc-mktemp\n";
    case "rev":
      return args.length === 0 ? reverseLines(stdin.replace(/\n$/, "")) + "\n" : undefined;
    case "cat":
      return args.length === 0 ? stdin : undefined;
    case "tr":
      return args.length === 2 && args[0] === "-d" && !/[-\\[]/.test(args[1]) ? [...stdin].filter((ch) => !args[1].includes(ch)).join("") : undefined;
  }
  return undefined;
}

/** Brace expansion as bash does it before anything else: `a{b,c}d` → abd acd (at most `max`). */
export function expandBraces(value: string, max = 64): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0 && open >= 0) {
        const body = value.slice(open + 1, i);
        const alts = splitTopLevel(body);
        if (alts.length > 1) {
          const out: string[] = [];
          for (const alt of alts) {
            for (const v of expandBraces(value.slice(0, open) + alt + value.slice(i + 1), max)) {
              if (out.length >= max) return out;
              out.push(v);
            }
          }
          return out;
        }
        open = -1;
      }
    }
  }
  return [value];
}

function splitTopLevel(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "{") depth++;
    else if (body[i] === "}") depth--;
    else if (body[i] === "," && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** The words an argument with an unquoted brace expansion becomes. */
export function braceWords(a: Arg): Arg[] {
  if (!a.braces || !known(a)) return [a];
  const values = expandBraces(a.value);
  if (values.length <= 1) return [a];
  return values.map((v) => shapedArg({ value: v, text: v, span: a.span, code: decodedCode(v, a.span), glob: /[*?[\]]/.test(v) ? true : undefined }));
}
