// Paths that interpreter code builds from known parts at run time: the home folder
// (`os.homedir()`, `Path.home()`, `process.env.HOME`, `os.path.expanduser('~')`), the working
// folder (`process.cwd()`, `os.getcwd()`), string literals, `+` concatenation, template literals
// and the join functions (`path.join`, `os.path.join`, `Path(a, b)`, `.joinpath()`, pathlib's `/`).
// Not a parser for those languages: a small evaluator for exactly that vocabulary; anything else
// in the expression leaves it unknown (the caller then asks, as for any target known only at run
// time). Pure: the home and working folders are given.
import { posix } from "node:path";
import type { Language } from "./inline-language";

export interface PathRoots {
  home: string;
  /** Undefined when a `cd` went somewhere unknown. */
  cwd: string | undefined;
}

type Token = { kind: "str"; value: string } | { kind: "name"; value: string } | { kind: "punct"; value: string };

/** The value of a path expression, or undefined when any part of it is not in the vocabulary. */
export function evalPathExpression(raw: string, lang: Language, roots: PathRoots): string | undefined {
  const tokens = tokenize(raw.replace(/\brequire\s*\(\s*(["'])(?:node:)?(os|path)\1\s*\)/g, "$2"), roots, lang);
  if (!tokens || tokens.length === 0) return undefined;
  const p = new Evaluator(tokens, lang, roots);
  const v = p.expr();
  return v !== undefined && p.done() ? v : undefined;
}

const HOME_CALLS = new Set(["os.homedir", "homedir", "Path.home", "pathlib.Path.home", "Deno.homeDir"]);
const CWD_CALLS = new Set(["process.cwd", "os.getcwd", "Path.cwd", "pathlib.Path.cwd", "Deno.cwd"]);
const HOME_NAMES = new Set(["process.env.HOME", "Dir.home"]);
/** `__dirname` of code given with `node -e` is "." (the working folder). */
const CWD_NAMES = new Set(["Dir.pwd", "__dirname"]);
const ENV_CALLS = new Set(["os.getenv", "os.environ.get", "Deno.env.get", "process.env.get"]);
const ENV_MAPS = new Set(["process.env", "os.environ", "ENV"]);
/** Joins that keep going past an absolute part (Node, Ruby) and those that restart there (Python). */
const JOIN_CONCAT = new Set(["path.join", "path.posix.join", "File.join"]);
const JOIN_RESTART = new Set(["os.path.join", "Path", "pathlib.Path", "PurePath", "PurePosixPath", "join"]);
const EXPAND_USER = new Set(["os.path.expanduser", "File.expand_path"]);

function tokenize(text: string, roots: PathRoots, lang: Language): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0 || text.slice(i + 1, end).includes("\\")) return undefined;
      out.push({ kind: "str", value: text.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (c === "`" && lang === "node") {
      // A template literal: its `${…}` parts are expressions of the same vocabulary.
      let value = "";
      let k = i + 1;
      while (k < text.length && text[k] !== "`") {
        if (text.startsWith("${", k)) {
          const close = text.indexOf("}", k);
          if (close < 0) return undefined;
          const inner = text.includes("`", k) && text.indexOf("`", k) < close ? undefined : evalPathExpression(text.slice(k + 2, close), lang, roots);
          if (inner === undefined) return undefined;
          value += inner;
          k = close + 1;
        } else if (text[k] === "\\") return undefined;
        else value += text[k++];
      }
      if (k >= text.length) return undefined;
      out.push({ kind: "str", value });
      i = k + 1;
      continue;
    }
    // A name chain (`os.path.join`), or a method after a call (`.joinpath` of `Path.home().joinpath`).
    const name = /^\.?[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*/.exec(text.slice(i));
    if (name) {
      out.push({ kind: "name", value: name[0].replace(/\s+/g, "") });
      i += name[0].length;
      continue;
    }
    if ("()[],+/".includes(c)) {
      out.push({ kind: "punct", value: c });
      i++;
      continue;
    }
    return undefined;
  }
  return out;
}

/** Parentheses and calls nested in one path expression. */
const MAX_NESTING = 32;

class Evaluator {
  private at = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly lang: Language,
    private readonly roots: PathRoots,
  ) {}

  done(): boolean {
    return this.at === this.tokens.length;
  }

  expr(): string | undefined {
    let v = this.quotient();
    while (v !== undefined && this.eat("+")) {
      const w = this.quotient();
      v = w === undefined ? undefined : v + w;
    }
    return v;
  }

  /** pathlib's `/` joins (Python only). */
  private quotient(): string | undefined {
    let v = this.postfix();
    while (v !== undefined && this.lang === "python" && this.eat("/")) {
      const w = this.postfix();
      v = w === undefined ? undefined : joinRestart([v, w]);
    }
    return v;
  }

  private postfix(): string | undefined {
    return this.chain(this.primary());
  }

  private primary(): string | undefined {
    const t = this.tokens[this.at];
    if (!t) return undefined;
    if (t.kind === "str") {
      this.at++;
      return t.value;
    }
    if (t.kind === "punct" && t.value === "(") {
      // Nesting deeper than any real path expression is not one (and must not exhaust the stack).
      if (++this.depth > MAX_NESTING) return undefined;
      this.at++;
      const v = this.expr();
      this.depth--;
      return v !== undefined && this.eat(")") ? this.chain(v) : undefined;
    }
    if (t.kind !== "name") return undefined;
    this.at++;
    const name = t.value;
    if (this.peek("(")) {
      if (++this.depth > MAX_NESTING) return undefined;
      this.at++;
      const args = this.args();
      this.depth--;
      if (args === undefined) return undefined;
      return this.chain(this.call(name, args));
    }
    if (this.peek("[")) {
      // process.env['HOME'], os.environ["HOME"], ENV['HOME']
      this.at++;
      const key = this.tokens[this.at];
      if (key?.kind !== "str" || !ENV_MAPS.has(name)) return undefined;
      this.at++;
      return this.eat("]") && key.value === "HOME" ? this.chain(this.roots.home) : undefined;
    }
    if (HOME_NAMES.has(name)) return this.chain(this.roots.home);
    if (CWD_NAMES.has(name)) return this.chain(this.roots.cwd);
    return undefined;
  }

  /** Methods on a path value: `.joinpath(…)`, `.expanduser()`, `.resolve()`, `.absolute()`. */
  private chain(v: string | undefined): string | undefined {
    while (v !== undefined) {
      const t = this.tokens[this.at];
      const method = t?.kind === "name" && t.value.startsWith(".") ? t.value.slice(1) : undefined;
      if (method === undefined || !/^(joinpath|expanduser|resolve|absolute)$/.test(method)) return v;
      this.at++;
      if (!this.eat("(")) return undefined;
      const args = this.args();
      if (args === undefined) return undefined;
      if (method === "joinpath") v = joinRestart([v, ...args]);
      else if (method === "expanduser") v = expandUser(v, this.roots.home);
      else v = this.roots.cwd === undefined ? undefined : posix.resolve(this.roots.cwd, v);
    }
    return v;
  }

  private call(name: string, args: string[]): string | undefined {
    if (HOME_CALLS.has(name) && args.length === 0) return this.roots.home;
    if (CWD_CALLS.has(name) && args.length === 0) return this.roots.cwd;
    if (ENV_CALLS.has(name) && args[0] === "HOME") return this.roots.home;
    if (EXPAND_USER.has(name) && args.length === 1) return expandUser(args[0], this.roots.home);
    if (name === "path.resolve" && this.roots.cwd !== undefined) return posix.resolve(this.roots.cwd, ...args);
    if (JOIN_CONCAT.has(name) && args.length > 0) return posix.join(...args);
    if (JOIN_RESTART.has(name) && args.length > 0 && (name !== "join" || this.lang === "python")) return joinRestart(args);
    return undefined;
  }

  private args(): string[] | undefined {
    const out: string[] = [];
    if (this.eat(")")) return out;
    for (;;) {
      const v = this.expr();
      if (v === undefined) return undefined;
      out.push(v);
      if (this.eat(")")) return out;
      if (!this.eat(",")) return undefined;
    }
  }

  private peek(p: string): boolean {
    const t = this.tokens[this.at];
    return t?.kind === "punct" && t.value === p;
  }

  private eat(p: string): boolean {
    if (!this.peek(p)) return false;
    this.at++;
    return true;
  }
}

function expandUser(p: string, home: string): string {
  return p === "~" ? home : p.startsWith("~/") ? home + p.slice(1) : p;
}

/** Python's os.path.join / pathlib: an absolute part restarts the path. */
function joinRestart(parts: string[]): string {
  let out = "";
  for (const part of parts) {
    if (part.startsWith("/")) out = part;
    else out = out === "" || out.endsWith("/") ? out + part : `${out}/${part}`;
  }
  return out;
}
