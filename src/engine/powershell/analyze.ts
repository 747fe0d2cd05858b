// PowerShell command line → the same CommandAnalysis the bash analysis produces: every command
// that runs (with the bash command it amounts to, so the rules' bash patterns apply), every path
// it touches, and what cannot be known. Cmdlets are read from the table in cmdlets.ts; native
// programs (git, npm, rm.exe…) are handed to the bash analysis; `Invoke-Expression`,
// `powershell -Command`/`-EncodedCommand`, `cmd /c` and nested code are read again. Pure.
import { posix } from "node:path";
import { analyzeCommand } from "../shell/analyze";
import { MAX_DEPTH, MAX_INPUT_CHARS } from "../shell/limits";
import { Sink } from "../shell/sink";
import type { CommandAnalysis, ShellContext } from "../shell/types";
import type { Access, Span } from "../types";
import { cmdletFor, findParam, hasDestructiveVerb, isHarmlessCmdlet, type CmdletSpec, type ParamSpec } from "./cmdlets";
import { readScript, type Element, type Part, type Pipeline, type Word } from "./syntax";
import { runCmd } from "./cmd";
import { shapeEffects } from "./env-and-system";
import { programName, shellQuote } from "./to-bash";
import type { PsHost, Scope, Value } from "./walk-types";

/** What a pipeline element hands on: the paths a listing cmdlet yields. */
interface Yield {
  paths: string[];
  recursive: boolean;
}

export function analyzePowerShell(command: string, ctx: ShellContext): CommandAnalysis {
  const w = new PsWalker(ctx);
  if (command.length > MAX_INPUT_CHARS) {
    w.sink.parseError(`the command is ${command.length} characters long, more than the ${MAX_INPUT_CHARS} analysed`, { start: 0, end: 80 });
    return w.sink.result();
  }
  w.script(command, 0, { cwd: ctx.cwd, vars: new Map(), functions: new Set() }, 0);
  // Statements whose shape is an effect the Bash analysis would find (issue 36): env dumps, secrets, the system.
  for (const e of shapeEffects(command)) w.sink.remoteEffect({ ...e, span: { start: 0, end: command.length } });
  return w.sink.result();
}

class PsWalker implements PsHost {
  readonly sink = new Sink();

  constructor(readonly ctx: ShellContext) {}

  script(code: string, offset: number, scope: Scope, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.sink.uncertainty(`the PowerShell code nests deeper than ${MAX_DEPTH} levels`, { start: offset, end: offset + Math.min(code.length, 80) });
      return;
    }
    const parsed = readScript(code, offset);
    for (const e of parsed.errors) this.sink.parseError(e.message, { start: e.start, end: e.end });
    for (const p of parsed.pipelines) this.pipeline(p, scope, depth);
  }

  private pipeline(p: Pipeline, scope: Scope, depth: number): void {
    let input: Yield | undefined;
    let fromPipe = false;
    for (const el of p.elements) {
      input = this.element(el, scope, depth, fromPipe ? (input ?? null) : undefined);
      fromPipe = true;
    }
  }

  /** `piped`: undefined for the first element; null when the previous element's output is unknown. */
  private element(el: Element, scope: Scope, depth: number, piped: Yield | null | undefined): Yield | undefined {
    const span = { start: el.start, end: el.end };
    for (const w of el.words) this.nested(w, scope, depth);
    for (const r of el.redirects) {
      if (!r.target) continue;
      this.nested(r.target, scope, depth);
      const v = this.value(r.target, scope);
      if (v.text !== undefined && /^(\$null|nul)$/i.test(v.text)) continue;
      this.touch(v, r.op.startsWith("<") ? "read" : "write", false, span, `${r.op} redirection`, scope);
    }
    if (el.words.length === 0) return undefined;
    for (const w of el.words) this.dotnet(w, scope, span);

    if (this.assignment(el, scope, depth)) return undefined;
    const head = el.words[0];
    const first = this.value(head, scope);
    if (first.text === undefined) {
      // `& $tool` runs a program named at run time; `$x -eq 1` or `(…)` without `&` is an expression.
      if (el.invoke) this.sink.uncertainty("runs a command whose name is only known at run time", span);
      return undefined;
    }
    const written = first.text.trim();
    const lower = written.toLowerCase();
    if (KEYWORDS.has(lower)) {
      if (lower === "function" || lower === "filter") {
        const name = el.words[1] && this.value(el.words[1], scope).text;
        if (name) scope.functions.add(name.toLowerCase());
      }
      return undefined;
    }
    if (!el.invoke && head.expression) return undefined;
    const program = programName(written);
    if (scope.functions.has(program.toLowerCase())) return undefined;
    const spec = cmdletFor(program);
    if (spec) return this.cmdlet(spec, el.words.slice(1), el, scope, depth, piped);
    if (isHarmlessCmdlet(program)) return undefined;
    if (/^[a-z]+-[a-z0-9]+$/i.test(program)) {
      if (hasDestructiveVerb(program)) this.sink.uncertainty(`${program} is a PowerShell cmdlet Damage Control has no description of, and its verb changes or removes things`, span);
      return undefined;
    }
    this.native(program, el.words.slice(1), el, scope, depth);
    return undefined;
  }

  /** `$x = …`: remembers a literal value; a command on the right is analysed. */
  private assignment(el: Element, scope: Scope, depth: number): boolean {
    const head = el.words[0];
    if (head.parts[0]?.kind !== "var") return false;
    const name = head.parts[0].name;
    const rest = head.parts.slice(1);
    let rhs: Word[];
    if (rest.length === 1 && rest[0].kind === "lit" && /^[+]?=/.test(rest[0].text)) {
      const after = rest[0].text.replace(/^[+]?=/, "");
      rhs = after ? [{ parts: [{ kind: "lit", text: after }], start: head.start, end: head.end }, ...el.words.slice(1)] : el.words.slice(1);
    } else if (rest.length === 0 && el.words[1] && this.raw(el.words[1]).match(/^[+]?=$/)) {
      rhs = el.words.slice(2);
    } else return false;
    if (rhs.length === 1 && !rhs[0].param) {
      scope.vars.set(name, this.value(rhs[0], scope).text);
    } else {
      scope.vars.set(name, undefined);
      const h = rhs[0] && this.value(rhs[0], scope).text;
      if (h && /^[A-Za-z]/.test(h)) this.element({ ...el, words: rhs, redirects: [] }, scope, depth, undefined);
    }
    return true;
  }

  private cmdlet(spec: CmdletSpec, args: Word[], el: Element, scope: Scope, depth: number, piped: Yield | null | undefined): Yield | undefined {
    const span = { start: el.start, end: el.end };
    const bound = bind(spec, args, (w) => this.value(w, scope));
    if (bound.switches.has("WhatIf")) return undefined;
    const values = (role: ParamSpec["role"]) => bound.byRole(role);
    const recursive = (spec.alwaysRecursive ?? false) || (spec.recursiveWith !== undefined && bound.switches.has(spec.recursiveWith));

    if (spec.changesDirectory) {
      const target = values("value")[0];
      if (target?.text !== undefined) scope.cwd = this.paths(target.text, scope)[0] ?? scope.cwd;
      return undefined;
    }
    if (spec.name === "Invoke-Expression") {
      for (const v of values("code")) this.code(v, scope, depth, span, "Invoke-Expression");
      return undefined;
    }
    if (spec.name === "Start-Process") return this.startProcess(bound, el, scope, depth);

    let targets = values("path");
    const pathsOf = (vs: Value[]) => vs.flatMap((v) => (v.text === undefined ? [] : this.paths(v.text, scope)));
    if (targets.length === 0 && spec.access && piped !== undefined && spec.params.some((p) => p.role === "path")) {
      // The targets arrive through the pipeline.
      if (piped === null) {
        if (spec.access !== "read" && spec.access !== "list") this.sink.uncertainty(`${spec.name} acts on whatever the pipeline before it yields`, span);
      } else {
        for (const p of piped.paths) this.sink.effect(p, spec.access, piped.recursive || recursive, span, spec.name);
      }
    } else if (targets.length === 0 && spec.access === "list") {
      // Get-ChildItem with no path lists the current folder.
      targets = [{ text: ".", word: el.words[0] }];
    }
    if (spec.access) for (const v of targets) this.touch(v, spec.access, recursive || (spec.moves ?? false), span, spec.name, scope);
    for (const v of values("dest")) {
      if (spec.name === "Rename-Item" && v.text !== undefined && !/[\\/]/.test(v.text)) {
        for (const from of pathsOf(targets)) this.sink.effect(posix.join(posix.dirname(from), v.text), "write", false, span, spec.name);
        continue;
      }
      this.touch(v, "write", recursive || spec.name === "Expand-Archive", span, spec.name, scope);
    }
    for (const v of values("source")) this.touch(v, "read", false, span, spec.name, scope);

    this.sink.command({ text: [spec.name, ...args.map((a) => this.shown(a, scope))].join(" "), variants: bashVariant(spec, bound, (v) => this.shownValue(v)), span });
    return spec.access === "list" ? { paths: pathsOf(targets), recursive } : undefined;
  }

  private startProcess(bound: Bound, el: Element, scope: Scope, depth: number): undefined {
    const span = { start: el.start, end: el.end };
    const file = bound.byRole("program")[0];
    if (!file) return undefined;
    if (file.text === undefined) {
      this.sink.uncertainty("Start-Process starts a program whose name is only known at run time", span);
      return undefined;
    }
    for (const v of bound.byRole("dest")) this.touch(v, "write", false, span, "Start-Process", scope);
    for (const v of bound.byRole("source")) this.touch(v, "read", false, span, "Start-Process", scope);
    const words = bound.byRole("args").flatMap((v): Word[] => (v.text === undefined ? [v.word] : splitArgumentList(v.text).map((a) => litWord(a, el))));
    const elevated = bound.values.get("Verb")?.some((v) => /^runas$/i.test(v.text ?? ""));
    const dir = bound.values.get("WorkingDirectory")?.[0]?.text;
    const inner: Scope = dir ? { ...scope, cwd: this.paths(dir, scope)[0] ?? scope.cwd } : scope;
    this.native(programName(file.text), words, el, inner, depth, elevated ? "sudo" : undefined);
    return undefined;
  }

  /** A program that is not a cmdlet: PowerShell and cmd are read again, anything else goes to the bash analysis. */
  native(program: string, args: Word[], el: Element, scope: Scope, depth: number, prefix?: string): void {
    const span = { start: el.start, end: el.end };
    const name = program.toLowerCase();
    const values = args.map((a) => this.value(a, scope));
    if (prefix) this.sink.command({ text: [prefix, program, ...values.map((v) => this.shownValue(v))].join(" "), span });
    if (name === "powershell" || name === "pwsh") return this.powershell(name, values, span, scope, depth);
    if (name === "cmd") return runCmd(this, values, span, scope, depth);
    const quoted = values.map((v) => (v.text === undefined ? '"$DC_PS_DYNAMIC"' : shellQuote(v.text)));
    const text = [shellQuote(program), ...quoted].join(" ");
    this.bash(text, span, scope);
  }

  /** Merges a bash analysis of `text` into this one; everything it finds stands at `span`. */
  bash(text: string, span: Span, scope: Scope): void {
    const a = analyzeCommand(text, { cwd: scope.cwd, home: this.ctx.home });
    for (const c of a.commands) this.sink.command({ ...c, span });
    for (const e of a.effects) this.sink.effect(e.path, e.access, e.recursive, span, e.via);
    for (const e of a.remote) this.sink.remoteEffect({ ...e, span });
    for (const u of a.uncertain) this.sink.uncertainty(u.why.replace(/"\$DC_PS_DYNAMIC"|\$DC_PS_DYNAMIC/g, "a run-time value"), span);
    for (const p of a.parseErrors) this.sink.uncertainty(`the program's arguments could not be read (${p.message})`, span);
  }

  /** `powershell -Command …`, `-EncodedCommand …` (base64 of UTF-16LE), or `-File` (a script: no opinion). */
  private powershell(name: string, values: Value[], span: Span, scope: Scope, depth: number): void {
    for (let i = 0; i < values.length; i++) {
      const opt = values[i].text?.toLowerCase();
      if (opt === undefined) return void this.sink.uncertainty(`${name} is given code only known at run time`, span);
      if (!/^[-/]/.test(opt)) {
        // powershell.exe reads a bare argument as -Command; pwsh as -File.
        if (name === "pwsh") return;
        return this.inline(values.slice(i), span, scope, depth, name);
      }
      const flag = opt.slice(1);
      if (isPrefix(flag, "command", 1)) return this.inline(values.slice(i + 1), span, scope, depth, name);
      if (isPrefix(flag, "encodedcommand", 1) || flag === "ec") {
        const text = values[i + 1]?.text;
        const decoded = text === undefined ? undefined : decodeUtf16Base64(text);
        if (decoded === undefined) return void this.sink.uncertainty(`${name} -EncodedCommand carries code that could not be decoded`, span);
        this.sink.command({ text: `${name} -EncodedCommand (decoded: ${decoded.slice(0, 200)})`, span });
        return this.apart(decoded, span, scope, depth);
      }
      if (isPrefix(flag, "file", 1)) return;
      if (["executionpolicy", "windowstyle", "workingdirectory", "configurationname", "outputformat", "inputformat", "version", "psconsolefile"].some((f) => isPrefix(flag, f, 2))) i++;
    }
  }

  private inline(values: Value[], span: Span, scope: Scope, depth: number, via: string): void {
    if (values.some((v) => v.text === undefined)) return void this.sink.uncertainty(`${via} is given code only known at run time`, span);
    const code = values.map((v) => v.text).join(" ");
    if (code === "-") return void this.sink.uncertainty(`${via} reads its code from standard input`, span);
    this.apart(code, span, scope, depth);
  }

  private code(v: Value, scope: Scope, depth: number, span: Span, via: string): void {
    if (v.text === undefined) return void this.sink.uncertainty(`${via} runs code only known at run time`, span);
    this.apart(v.text, span, scope, depth);
  }

  /** Code that is not text of the command line (a string's value, decoded text): all it does stands at `span`. */
  private apart(code: string, span: Span, scope: Scope, depth: number): void {
    const inner = new PsWalker(this.ctx);
    inner.script(code, 0, { cwd: scope.cwd, vars: new Map(scope.vars), functions: scope.functions }, depth + 1);
    const r = inner.sink.result();
    for (const c of r.commands) this.sink.command({ ...c, span });
    for (const e of r.effects) this.sink.effect(e.path, e.access, e.recursive, span, e.via);
    for (const u of r.uncertain) this.sink.uncertainty(u.why, span);
    for (const p of r.parseErrors) this.sink.uncertainty(`the code it runs could not be read (${p.message})`, span);
  }

  /** Nested code inside a word (`$(…)`, `(…)`, `{…}`) runs too: it is read as PowerShell. */
  private nested(w: Word, scope: Scope, depth: number): void {
    const all = w.value ? [...w.parts, ...w.value.parts] : w.parts;
    for (const p of all) {
      if (p.kind !== "code" || p.how === "hash") continue;
      const inner: Scope = { cwd: scope.cwd, vars: new Map(scope.vars), functions: scope.functions };
      // Script blocks see pipeline items as $_ / $PSItem: values only known at run time.
      this.script(p.code, p.offset, inner, depth + 1);
    }
  }

  /** Reports an access to a path value, or that its target is only known at run time. */
  touch(v: Value, access: Access, recursive: boolean, span: Span, via: string, scope: Scope): void {
    if (v.text === undefined) {
      this.sink.uncertainty(`${via} ${verbOf(access)} a path only known at run time`, span);
      return;
    }
    for (const text of splitList(v.text)) for (const p of this.paths(text, scope)) this.sink.effect(p, access, recursive, span, via);
  }

  /**
   * A PowerShell path → absolute POSIX paths to check: `~`, `$HOME`, `$env:USERPROFILE` and
   * `C:\Users\<name>` are the home folder; backslashes are separators; provider prefixes go.
   * Windows and macOS file systems ignore case, so the part below home or cwd is also checked
   * lower-cased (`.ENV` is `.env` there).
   */
  paths(text: string, scope: Scope): string[] {
    let p = text.trim().replace(/^(?:Microsoft\.PowerShell\.Core\\)?FileSystem::/i, "");
    if (p === "") return [];
    const home = this.ctx.home;
    p = p.replace(/^~(?=$|[\\/])/, home);
    const profile = /^[A-Za-z]:[\\/]Users[\\/][^\\/]+/i.exec(p);
    if (profile) p = home + p.slice(profile[0].length);
    p = p.replace(/\\/g, "/");
    const drive = /^([A-Za-z]):(\/|$)/.exec(p);
    const abs = drive ? posix.normalize(`/${drive[1].toLowerCase()}:/${p.slice(drive[0].length)}`) : posix.resolve(scope.cwd, p);
    const out = [abs];
    for (const base of [home, scope.cwd]) {
      if (abs.startsWith(base + "/")) {
        const folded = base + abs.slice(base.length).toLowerCase();
        if (folded !== abs) out.push(folded);
        break;
      }
    }
    return out;
  }

  /** The static value of a word, or no text when any part is only known at run time. */
  value(w: Word, scope: Scope): Value {
    let text = "";
    for (const part of w.parts) {
      const t = this.partText(part, scope);
      if (t === undefined) return { word: w };
      text += t;
    }
    return { text, word: w };
  }

  private partText(part: Part, scope: Scope): string | undefined {
    if (part.kind === "lit") return part.text;
    if (part.kind === "code") return undefined;
    const name = part.name;
    if (scope.vars.has(name)) return scope.vars.get(name);
    if (name === "home" || name === "env:home" || name === "env:userprofile") return this.ctx.home;
    // The temp dir (issue 36: scratch below it is everyday to remove).
    if (name === "env:temp" || name === "env:tmp" || name === "env:tmpdir") return "/tmp";
    if (name === "pwd") return scope.cwd;
    if (name === "null") return "$null";
    if (name === "true" || name === "false") return `$${name}`;
    return undefined;
  }

  private raw(w: Word): string {
    return w.parts.map((p) => (p.kind === "lit" ? p.text : p.kind === "var" ? `$${p.name}` : "(…)")).join("");
  }

  private shown(w: Word, scope: Scope): string {
    if (w.param) return "-" + w.param + (w.value ? ":" + this.shown(w.value, scope) : "");
    return this.shownValue(this.value(w, scope));
  }

  private shownValue(v: Value): string {
    return v.text ?? this.raw(v.word);
  }

  /** `[System.IO.File]::Delete('x')` and its kin: .NET's file API called directly. */
  private dotnet(w: Word, scope: Scope, span: Span): void {
    for (let i = 0; i + 1 < w.parts.length; i++) {
      const head = w.parts[i];
      const args = w.parts[i + 1];
      if (head.kind !== "lit" || args.kind !== "code" || args.how !== "paren") continue;
      const m = /\[(?:System\.)?IO\.(File|Directory)\]::(\w+)$/i.exec(head.text);
      if (!m) continue;
      const effect = DOTNET[`${m[1].toLowerCase()}.${m[2].toLowerCase()}`];
      if (!effect) continue;
      const el = readScript(args.code, args.offset).pipelines[0]?.elements[0];
      const values = (el?.words ?? []).map((a) => this.value(a, scope));
      const via = `[IO.${m[1]}]::${m[2]}`;
      const recursive = m[1].toLowerCase() === "directory" && /^(\$true|1)$/i.test(values[1]?.text ?? "");
      // Shown as the recursive delete it is, so the rm rules judge it as they judge Remove-Item -Recurse.
      if (recursive && m[2].toLowerCase() === "delete" && values[0]?.text !== undefined) this.sink.command({ text: `rm -rf ${shellQuote(values[0].text)}`, span });
      effect.forEach((access, n) => values[n] && this.touch(values[n], access, recursive || (access === "delete" && m[1].toLowerCase() === "directory" && n === 0 && effect.length > 1), span, via, scope));
    }
  }
}

/** .NET file API methods → how their first, second… argument is touched. */
const DOTNET: Record<string, Access[]> = {
  "file.delete": ["delete"],
  "file.readalltext": ["read"],
  "file.readallbytes": ["read"],
  "file.readalllines": ["read"],
  "file.readlines": ["read"],
  "file.openread": ["read"],
  "file.opentext": ["read"],
  "file.open": ["write"],
  "file.openwrite": ["write"],
  "file.create": ["write"],
  "file.createtext": ["write"],
  "file.writealltext": ["write"],
  "file.writeallbytes": ["write"],
  "file.writealllines": ["write"],
  "file.appendalltext": ["write"],
  "file.appendalllines": ["write"],
  "file.copy": ["read", "write"],
  "file.move": ["delete", "write"],
  "file.replace": ["delete", "write"],
  "directory.delete": ["delete"],
  "directory.move": ["delete", "write"],
  "directory.getfiles": ["list"],
  "directory.enumeratefiles": ["list"],
};

const KEYWORDS = new Set(["if", "elseif", "else", "foreach", "for", "while", "do", "until", "switch", "function", "filter", "try", "catch", "finally", "trap", "param", "return", "exit", "throw", "break", "continue", "begin", "process", "end", "class", "enum", "using", "data"]);

export interface Bound {
  /** Values by parameter name (canonical). */
  values: Map<string, Value[]>;
  switches: Set<string>;
  byRole(role: ParamSpec["role"]): Value[];
}

/** Binds arguments to a cmdlet's parameters by name (alias, unambiguous prefix) and position. */
export function bind(spec: CmdletSpec, args: Word[], valueOf: (w: Word) => Value): Bound {
  const values = new Map<string, Value[]>();
  const switches = new Set<string>();
  const positional: Value[][] = [];
  const put = (name: string, v: Value) => values.set(name, [...(values.get(name) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.param !== undefined) {
      const candidates = findParam(spec, w.param);
      if (candidates.length === 0) continue;
      if (candidates.some((c) => c.role === "switch")) {
        // A switch written `-Recurse:$false` is off; an ambiguous prefix sets every switch it may mean.
        const off = w.value && /^\$false$|^0$/i.test(valueOf(w.value).text ?? "");
        if (!off) for (const c of candidates) if (c.role === "switch") switches.add(c.name);
        continue;
      }
      const taken: Value[] = [];
      if (w.value) taken.push(valueOf(w.value));
      else if (i + 1 < args.length && args[i + 1].param === undefined) {
        taken.push(valueOf(args[++i]));
        while (i + 1 < args.length && args[i + 1].joined) taken.push(valueOf(args[++i]));
      }
      for (const c of candidates) for (const v of taken) put(c.name, v);
      continue;
    }
    if (w.joined && positional.length) positional[positional.length - 1].push(valueOf(w));
    else positional.push([valueOf(w)]);
  }
  const byPosition = spec.params.filter((p) => p.position !== undefined && !values.has(p.name)).sort((a, b) => a.position! - b.position!);
  positional.forEach((vs, i) => {
    const p = byPosition[i] ?? byPosition[byPosition.length - 1];
    // Extra positionals of Start-Process belong to its argument list; elsewhere to the last slot.
    if (p) for (const v of vs) put(p.name, v);
  });
  const byRole = (role: ParamSpec["role"]) => spec.params.filter((p) => p.role === role).flatMap((p) => values.get(p.name) ?? []);
  return { values, switches, byRole };
}

/** The bash command a cmdlet amounts to (`Remove-Item -Recurse -Force x` → `rm -r -f x`). */
function bashVariant(spec: CmdletSpec, bound: Bound, shown: (v: Value) => string): string[] | undefined {
  if (!spec.bash) return undefined;
  const flags = Object.entries(spec.bash.flags ?? {})
    .filter(([sw]) => bound.switches.has(sw))
    .map(([, f]) => f);
  const operands = [...bound.byRole("path"), ...bound.byRole("dest")].flatMap((v) => (v.text === undefined ? [shown(v)] : splitList(v.text)));
  return [[spec.bash.program, ...flags, ...operands].join(" ")];
}

/** `a,b` written inside one string is still one path; a comma list arrives as joined words. */
function splitList(text: string): string[] {
  return [text];
}

function verbOf(access: Access): string {
  return { read: "reads", write: "writes", delete: "deletes", list: "lists" }[access];
}

function isPrefix(written: string, full: string, min: number): boolean {
  return written.length >= min && full.startsWith(written);
}

/** Start-Process -ArgumentList "a b 'c d'" → words, as the started program would receive them. */
function splitArgumentList(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

function litWord(text: string, el: Element): Word {
  return { parts: [{ kind: "lit", text }], start: el.start, end: el.end };
}

/** -EncodedCommand: base64 of UTF-16LE text. */
export function decodeUtf16Base64(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(text)) return undefined;
  let bin: string;
  try {
    bin = atob(text.replace(/\s+/g, ""));
  } catch {
    return undefined;
  }
  let out = "";
  for (let i = 0; i + 1 < bin.length; i += 2) out += String.fromCharCode(bin.charCodeAt(i) | (bin.charCodeAt(i + 1) << 8));
  return out;
}
