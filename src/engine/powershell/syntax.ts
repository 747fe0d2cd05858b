// Reads a PowerShell command line into statements, pipelines, command elements, words and
// redirections — what is needed to know which cmdlets and programs run with which arguments.
// Not a full PowerShell parser (none exists on npm): expressions are kept as opaque code parts
// (`$(…)`, `(…)`, `{…}`, `@(…)`) that the analysis reads again as PowerShell. What it cannot read
// is reported as an error, and the decider asks.

/** A piece of one word: literal text, a variable, or nested code whose value is unknown. */
export type Part =
  | { kind: "lit"; text: string }
  /** Lower-cased, scope kept: `home`, `env:userprofile`, `_`. */
  | { kind: "var"; name: string }
  | { kind: "code"; code: string; offset: number; how: "sub" | "paren" | "block" | "array" | "hash" };

export interface Word {
  parts: Part[];
  start: number;
  end: number;
  /** `-Name` (without the dash, as written); `value` is the `-Name:value` form. */
  param?: string;
  value?: Word;
  /** Written after a comma: another element of the previous argument's array. */
  joined?: boolean;
  /**
   * Starts as an expression does (a string, number, variable, `[type]`, `(…)`, `@(…)`): as the
   * first word of a statement it is a value, not a command to run (unless called with `&`).
   */
  expression?: boolean;
}

export interface Redirect {
  op: string;
  target?: Word;
  start: number;
  end: number;
}

export interface Element {
  words: Word[];
  redirects: Redirect[];
  /** `& cmd` or `. cmd`. */
  invoke?: "&" | ".";
  start: number;
  end: number;
}

export interface Pipeline {
  elements: Element[];
  start: number;
  end: number;
}

export interface SyntaxError {
  message: string;
  start: number;
  end: number;
}

export interface Script {
  pipelines: Pipeline[];
  errors: SyntaxError[];
}

const SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b";
const DOUBLE_QUOTES = '"\u201c\u201d\u201e';
const DASHES = "-\u2013\u2014\u2015";
/** Characters that end a bareword in argument mode. */
const WORD_END = " \t\r\n;|,)}&<>";

/** `offset`: where `src` starts in the whole command line (spans are reported against it). */
export function readScript(src: string, offset = 0): Script {
  return new Reader(src, offset).script();
}

class Reader {
  private i = 0;
  private readonly errors: SyntaxError[] = [];

  constructor(
    private readonly src: string,
    private readonly base: number,
  ) {}

  script(): Script {
    const pipelines: Pipeline[] = [];
    while (this.i < this.src.length) {
      this.skipBlank(true);
      if (this.i >= this.src.length) break;
      const c = this.src[this.i];
      if (c === ";" || c === "\n") {
        this.i++;
        continue;
      }
      if (this.src.startsWith("&&", this.i) || this.src.startsWith("||", this.i)) {
        this.i += 2;
        continue;
      }
      if (c === ")" || c === "}") {
        this.error(`unexpected "${c}"`, this.i, this.i + 1);
        this.i++;
        continue;
      }
      const before = this.i;
      pipelines.push(this.pipeline());
      if (this.i === before) this.i++;
    }
    return { pipelines, errors: this.errors };
  }

  private pipeline(): Pipeline {
    const start = this.i;
    const elements = [this.element()];
    while (this.src[this.i] === "|" && this.src[this.i + 1] !== "|") {
      this.i++;
      this.skipBlank(false);
      elements.push(this.element());
    }
    return { elements, start: this.base + start, end: this.base + this.i };
  }

  private element(): Element {
    const start = this.i;
    const el: Element = { words: [], redirects: [], start: this.base + start, end: this.base + start };
    let joinNext = false;
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.src.length) break;
      const c = this.src[this.i];
      if (c === "\n" || c === ";" || c === "|" || c === ")" || c === "}") break;
      if (c === "&") {
        if (this.src[this.i + 1] === "&") break;
        if (el.words.length === 0 && !el.invoke) el.invoke = "&";
        this.i++;
        continue;
      }
      if (c === "." && el.words.length === 0 && !el.invoke && /[\s]/.test(this.src[this.i + 1] ?? "")) {
        el.invoke = ".";
        this.i++;
        continue;
      }
      const redirect = /^(?:[1-6*]?>>?(?:&[12])?|<)/.exec(this.src.slice(this.i, this.i + 5));
      if (redirect) {
        const at = this.i;
        this.i += redirect[0].length;
        const r: Redirect = { op: redirect[0], start: this.base + at, end: this.base + this.i };
        if (!redirect[0].includes("&")) {
          this.skipBlank(true);
          if (this.i < this.src.length && !WORD_END.includes(this.src[this.i])) {
            r.target = this.word(false);
            r.end = r.target.end;
          } else this.error(`a redirection "${redirect[0]}" without a target`, at, this.i);
        }
        el.redirects.push(r);
        continue;
      }
      if (c === ",") {
        this.i++;
        joinNext = true;
        continue;
      }
      if (this.src.startsWith("--%", this.i)) {
        this.stopParsing(el);
        break;
      }
      const w = this.word(el.words.length > 0 || !!el.invoke);
      if (joinNext) w.joined = true;
      joinNext = false;
      el.words.push(w);
    }
    el.end = this.base + this.i;
    return el;
  }

  /** `--%`: the rest of the line goes to a native program as written. */
  private stopParsing(el: Element): void {
    this.i += 3;
    const lineEnd = this.src.indexOf("\n", this.i);
    const end = lineEnd < 0 ? this.src.length : lineEnd;
    for (const m of this.src.slice(this.i, end).matchAll(/\S+/g)) {
      const s = this.i + m.index!;
      el.words.push({ parts: [{ kind: "lit", text: m[0] }], start: this.base + s, end: this.base + s + m[0].length });
    }
    this.i = end;
  }

  /** One word in argument mode. `params`: a leading dash makes a parameter (not for the command name). */
  private word(params: boolean): Word {
    const start = this.i;
    if (params && DASHES.includes(this.src[this.i]) && /[A-Za-z_?]/.test(this.src[this.i + 1] ?? "")) {
      this.i++;
      const m = /^[A-Za-z0-9_?-]*/.exec(this.src.slice(this.i))![0];
      let name = m;
      this.i += m.length;
      let value: Word | undefined;
      if (name.endsWith(":")) name = name.slice(0, -1);
      if (this.src[this.i] === ":") {
        this.i++;
        if (this.i < this.src.length && !WORD_END.includes(this.src[this.i])) value = this.word(false);
      }
      return { parts: [{ kind: "lit", text: "-" + name }], start: this.base + start, end: this.base + this.i, param: name, ...(value && { value }) };
    }
    const parts: Part[] = [];
    const expression = /^[0-9[($@]/.test(this.src[this.i]) || SINGLE_QUOTES.includes(this.src[this.i]) || DOUBLE_QUOTES.includes(this.src[this.i]);
    const lit = (text: string) => {
      const last = parts[parts.length - 1];
      if (last?.kind === "lit") last.text += text;
      else parts.push({ kind: "lit", text });
    };
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (WORD_END.includes(c)) break;
      if (SINGLE_QUOTES.includes(c)) {
        lit(this.singleQuoted());
      } else if (DOUBLE_QUOTES.includes(c)) {
        this.doubleQuoted(parts, lit);
      } else if (c === "@" && (SINGLE_QUOTES.includes(this.src[this.i + 1]) || DOUBLE_QUOTES.includes(this.src[this.i + 1])) && /^\s*\n/.test(this.src.slice(this.i + 2, this.i + 40))) {
        this.hereString(parts, lit);
      } else if (c === "@" && (this.src[this.i + 1] === "(" || this.src[this.i + 1] === "{")) {
        const open = this.src[this.i + 1];
        this.i += 2;
        parts.push(this.group(open === "(" ? ")" : "}", open === "(" ? "array" : "hash"));
      } else if (c === "(") {
        this.i++;
        parts.push(this.group(")", "paren"));
      } else if (c === "{") {
        this.i++;
        parts.push(this.group("}", "block"));
      } else if (c === "$") {
        this.variable(parts, lit);
      } else if (c === "`") {
        this.i++;
        if (this.src[this.i] === "\n") {
          this.i++;
          break;
        }
        lit(escaped(this.src[this.i] ?? ""));
        this.i++;
      } else {
        lit(c);
        this.i++;
      }
    }
    return { parts, start: this.base + start, end: this.base + this.i, ...(expression && { expression }) };
  }

  private singleQuoted(): string {
    const at = this.i;
    this.i++;
    let out = "";
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (SINGLE_QUOTES.includes(c)) {
        if (SINGLE_QUOTES.includes(this.src[this.i + 1] ?? "\0")) {
          out += c;
          this.i += 2;
          continue;
        }
        this.i++;
        return out;
      }
      out += c;
      this.i++;
    }
    this.error("a single-quoted string is not closed", at, this.src.length);
    return out;
  }

  private doubleQuoted(parts: Part[], lit: (t: string) => void): void {
    const at = this.i;
    this.i++;
    lit("");
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (DOUBLE_QUOTES.includes(c)) {
        if (DOUBLE_QUOTES.includes(this.src[this.i + 1] ?? "\0")) {
          lit(c);
          this.i += 2;
          continue;
        }
        this.i++;
        return;
      }
      if (c === "`") {
        lit(escaped(this.src[this.i + 1] ?? ""));
        this.i += 2;
      } else if (c === "$") {
        this.variable(parts, lit);
      } else {
        lit(c);
        this.i++;
      }
    }
    this.error("a double-quoted string is not closed", at, this.src.length);
  }

  private hereString(parts: Part[], lit: (t: string) => void): void {
    const at = this.i;
    const expandable = DOUBLE_QUOTES.includes(this.src[this.i + 1]);
    const nl = this.src.indexOf("\n", this.i);
    const close = new RegExp(`\\n[ \\t]*[${expandable ? DOUBLE_QUOTES : SINGLE_QUOTES}]@`, "g");
    close.lastIndex = nl;
    const m = close.exec(this.src);
    if (!m) {
      this.error("a here-string is not closed", at, this.src.length);
      lit(this.src.slice(nl + 1));
      this.i = this.src.length;
      return;
    }
    const body = this.src.slice(nl + 1, m.index);
    if (!expandable) lit(body);
    else new Reader(body, 0).expandInto(parts, lit);
    this.i = m.index + m[0].length;
  }

  /** Reads `src` as the inside of a double-quoted string into parts. */
  private expandInto(parts: Part[], lit: (t: string) => void): void {
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === "$") this.variable(parts, lit);
      else if (c === "`") {
        lit(escaped(this.src[this.i + 1] ?? ""));
        this.i += 2;
      } else {
        lit(c);
        this.i++;
      }
    }
  }

  private variable(parts: Part[], lit: (t: string) => void): void {
    const next = this.src[this.i + 1] ?? "";
    if (next === "(") {
      this.i += 2;
      parts.push(this.group(")", "sub"));
      return;
    }
    if (next === "{") {
      const close = this.src.indexOf("}", this.i + 2);
      if (close < 0) {
        this.error("a ${…} variable is not closed", this.i, this.src.length);
        this.i = this.src.length;
        return;
      }
      parts.push({ kind: "var", name: this.src.slice(this.i + 2, close).toLowerCase() });
      this.i = close + 1;
      return;
    }
    const m = /^(?:[A-Za-z_][A-Za-z0-9_]*(?::[A-Za-z_][A-Za-z0-9_()]*)?|[$?^_])/.exec(this.src.slice(this.i + 1));
    if (!m) {
      lit("$");
      this.i++;
      return;
    }
    parts.push({ kind: "var", name: m[0].toLowerCase() });
    this.i += 1 + m[0].length;
  }

  /** Nested code up to its closing bracket; strings and comments inside are skipped over. */
  private group(close: string, how: "sub" | "paren" | "block" | "array" | "hash"): Part {
    const from = this.i;
    const open = close === ")" ? "(" : "{";
    let depth = 1;
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (SINGLE_QUOTES.includes(c)) {
        this.singleQuoted();
        continue;
      }
      if (DOUBLE_QUOTES.includes(c)) {
        this.doubleQuoted([], () => undefined);
        continue;
      }
      if (c === "#" && (this.i === 0 || /\s/.test(this.src[this.i - 1]))) {
        this.skipComment();
        continue;
      }
      if (c === "`") {
        this.i += 2;
        continue;
      }
      if (c === open || (c === "(" && open === "{") || (c === "{" && open === "(")) {
        if (c === open) depth++;
        else {
          // The other kind of bracket: skip its whole group so its closer is not counted.
          this.i++;
          this.group(c === "(" ? ")" : "}", "paren");
          continue;
        }
      } else if (c === close) {
        depth--;
        if (depth === 0) {
          const code = this.src.slice(from, this.i);
          this.i++;
          return { kind: "code", code, offset: this.base + from, how };
        }
      }
      this.i++;
    }
    this.error(`"${open}" is not closed`, from - 1, this.src.length);
    return { kind: "code", code: this.src.slice(from), offset: this.base + from, how };
  }

  /** Spaces, tabs, comments and line continuations; newlines too when `newlines` is false. */
  private skipBlank(stopAtNewline: boolean): void {
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === " " || c === "\t" || c === "\r" || c === "\u00a0") this.i++;
      else if (c === "`" && (this.src[this.i + 1] === "\n" || this.src.startsWith("\r\n", this.i + 1))) this.i += this.src[this.i + 1] === "\r" ? 3 : 2;
      else if (c === "\n" && !stopAtNewline) this.i++;
      else if (c === "#") this.skipComment();
      else if (this.src.startsWith("<#", this.i)) this.skipComment();
      else break;
    }
  }

  private skipComment(): void {
    if (this.src.startsWith("<#", this.i)) {
      const end = this.src.indexOf("#>", this.i + 2);
      this.i = end < 0 ? this.src.length : end + 2;
      return;
    }
    const end = this.src.indexOf("\n", this.i);
    this.i = end < 0 ? this.src.length : end;
  }

  private error(message: string, start: number, end: number): void {
    this.errors.push({ message, start: this.base + start, end: this.base + end });
  }
}

/** A backtick escape: `` `n `` is a newline, `` `0 `` NUL, anything else is itself. */
function escaped(c: string): string {
  return ({ n: "\n", t: "\t", r: "\r", "0": "\0", a: "\x07", b: "\b", f: "\f", v: "\v", e: "\x1b" } as Record<string, string>)[c] ?? c;
}
