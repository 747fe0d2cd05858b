// The walker: shell syntax → every simple command that will execute, with its argv evaluated,
// its redirections turned into path effects or stdin, and the scripts nested in its words walked.
// Lists and pipelines, subshells, groups, if/for/while/case, functions and coprocs are all walked;
// `cd` is tracked in the scope so later relative paths resolve where the shell will be.
import { forEachChild, parse, type SyntaxNode, type CommandNode, type CompoundList, type ParsedScript, type PipelineNode, type Redirection, type Statement, type Command as ShCommand, type Word } from "./unbash";
import type { Access, Span } from "../types";
import { spanIn, type Code } from "./code";
import { Minimatch } from "minimatch";
import { dashedSubcommand, dispatch, handledPrograms, programOf } from "./dispatch";
import { carriedByEnv } from "./programs/carriers";
import { pathEffect } from "./effects";
import { resolvePath } from "../paths";
import { MAX_DEPTH, MAX_LOOP_VALUES } from "./limits";
import { programName, Spellings, textOf, type Presented } from "./normalize";
import type { Invocation, RunResult, Runner } from "./runner";
import { NO_STDIN, UNKNOWN_OUTPUT, type Stdin } from "./stdin";
import { Scope, type Sym } from "./scope";
import { Sink } from "./sink";
import type { ExecutedCommand, Narrow, ShellContext } from "./types";
import { applyPlaceholders, shapedArg, braceWords, decodedCode, evalHereDocBody, evalWord, known, scriptCode, type Arg, type NestedScript } from "./words";

/** Builtins whose `NAME=value` words assign in the current shell. */
const DECLARATIONS: ReadonlySet<string> = new Set(["export", "local", "declare", "typeset", "readonly"]);

/** Nodes walked per command line; beyond, the rest is reported as not analysed. */
const MAX_NODES = 20_000;

export class Walker implements Runner {
  readonly sink = new Sink();
  private nodes = 0;
  private exhausted = false;

  constructor(readonly ctx: ShellContext) {}

  rootScope(): Scope {
    const scope = new Scope(this.ctx.cwd, this.ctx.home);
    // `$TMPDIR` unset in the line is the temp dir (issue 36: `rm -rf "$TMPDIR/x"` is scratch).
    scope.set("TMPDIR", { kind: "literal", value: "/tmp" });
    return scope;
  }

  // ---- Runner -------------------------------------------------------------------------------

  runCode(code: Code, scope: Scope, stdin: Stdin, depth: number, why: string): void {
    const whole = spanIn(code, 0, code.text.length);
    if (depth > MAX_DEPTH) {
      this.uncertain(`${why} nests code more than ${MAX_DEPTH} levels deep, too deep to analyse`, whole);
      return;
    }
    const ast = parse(code.text);
    this.reportErrors(ast, code);
    this.walkStatements(ast.commands, code, scope, stdin, depth);
  }

  run(argv: Arg[], scope: Scope, stdin: Stdin, span: Span, depth: number): RunResult {
    if (argv.length === 0) return { stdout: NO_STDIN };
    // find -exec / xargs -I run this argv with `{}` standing for each item.
    if (scope.placeholders) argv = argv.map((a) => applyPlaceholders(a, scope));
    if (depth > MAX_DEPTH) {
      this.uncertain(`commands are nested more than ${MAX_DEPTH} levels deep, too deep to analyse`, span);
      return { stdout: UNKNOWN_OUTPUT };
    }
    const program = argv[0];
    // An alias defined earlier (`alias x='rm -rf'; x src`) is its text followed by the words.
    // Expanded whether or not `shopt -s expand_aliases` was seen: the safe reading.
    const alias = known(program) ? scope.get(aliasKey(program.value)) : undefined;
    if (alias && alias.kind === "literal") {
      const inner = scope.fork();
      inner.set(aliasKey(program.value!), { kind: "unknown" }); // an alias is not expanded inside itself
      const text = [alias.value, ...argv.slice(1).map((a) => (known(a) ? quoteWord(a.value) : a.text))].join(" ");
      this.runCode(decodedCode(text, span), inner, stdin, depth + 1, `the alias ${program.value}`);
      return { stdout: UNKNOWN_OUTPUT };
    }
    // A command word that is a glob (`/usr/bin/r[m]`, `/bin/?m`) runs whichever program it
    // expands to: each program the analysis knows that it may name is run in its place.
    if (program.glob && known(program)) {
      const base = programName(program.value);
      const mm = new Minimatch(base, { nocomment: true, nonegate: true });
      const names = handledPrograms().filter((n) => mm.match(n)).slice(0, 8);
      if (names.length === 0) {
        this.uncertain(`the program to run, \`${program.text}\`, is a pattern that expands when the command runs`, program.span);
        return { stdout: UNKNOWN_OUTPUT };
      }
      let out: RunResult = { stdout: UNKNOWN_OUTPUT };
      for (const n of names) out = dispatch({ name: n, args: argv.slice(1), program: { ...program, value: n }, scope, stdin, span, depth }, this) ?? out;
      return names.length === 1 ? out : { stdout: UNKNOWN_OUTPUT };
    }
    if (!known(program)) {
      this.uncertain(`the program to run, \`${program.text}\`, is only known when the command runs`, program.span);
      return { stdout: UNKNOWN_OUTPUT };
    }
    const name = programOf(program.value);
    const dashed = dashedSubcommand(name);
    const args = dashed ? [shapedArg({ value: dashed.sub, text: dashed.sub, span: program.span }), ...argv.slice(1)] : argv.slice(1);
    const inv: Invocation = { name: dashed?.program ?? name, args, program, scope, stdin, span, depth };
    return dispatch(inv, this) ?? { stdout: UNKNOWN_OUTPUT };
  }

  emitText(text: string, span: Span, at?: number, confined?: ExecutedCommand["confined"]): void {
    this.sink.command({ text, span, ...(confined && { confined }) }, at);
  }

  emit(inv: Pick<Invocation, "span">, presented: Presented, span?: Span): string {
    const text = textOf(presented);
    this.sink.command({ text, span: span ?? inv.span, spellings: new Spellings(presented, text) });
    return text;
  }

  path(inv: Pick<Invocation, "scope">, arg: Arg, access: Access, recursive: boolean, via: string, narrow?: Narrow): void {
    pathEffect(this, inv.scope, arg, access, recursive, via, narrow);
  }

  uncertain(why: string, span: Span, target?: Access, via?: string): void {
    this.sink.uncertainty(why, span, target, via);
  }

  // ---- syntax -------------------------------------------------------------------------------

  private reportErrors(ast: ParsedScript, code: Code): void {
    for (const e of ast.errors ?? []) this.sink.parseError(e.message, spanIn(code, e.pos, Math.min(code.text.length, e.pos + 1)));
  }

  private tick(span: Span): boolean {
    if (++this.nodes <= MAX_NODES) return true;
    if (!this.exhausted) {
      this.exhausted = true;
      this.uncertain("the command is too large to analyse completely", span);
    }
    return false;
  }

  /** Walks the statements; returns what the last one prints. */
  walkStatements(list: readonly Statement[], src: Code, scope: Scope, stdin: Stdin, depth: number): Stdin {
    let out: Stdin = NO_STDIN;
    for (const st of list) out = this.walkNode(st.command, src, scope, stdin, depth);
    return out;
  }

  private walkList(list: CompoundList | undefined, src: Code, scope: Scope, stdin: Stdin, depth: number): void {
    if (list) this.walkStatements(list.commands, src, scope, stdin, depth);
  }

  /** Walks one node; returns what it prints (for pipelines). */
  private walkNode(node: PipelineNode | CommandNode | Statement["command"], src: Code, scope: Scope, stdin: Stdin, depth: number): Stdin {
    if (!this.tick(spanIn(src, node.pos, node.end))) return UNKNOWN_OUTPUT;
    switch (node.type) {
      case "AndOr":
        for (const c of node.commands) this.walkNode(c, src, scope, stdin, depth);
        return UNKNOWN_OUTPUT;
      case "Pipeline": {
        // Each element runs in its own subshell; element i's stdout is element i+1's stdin.
        let input = stdin;
        for (const c of node.commands) input = this.walkNode(c, src, node.commands.length > 1 ? scope.fork() : scope, input, depth);
        return input;
      }
      case "Command":
        return this.walkCommand(node, src, scope, stdin, depth);
      case "Subshell":
        this.walkList(node.body, src, scope.fork(), stdin, depth);
        return UNKNOWN_OUTPUT;
      case "BraceGroup":
        this.walkList(node.body, src, scope, stdin, depth);
        return UNKNOWN_OUTPUT;
      case "If":
        this.walkList(node.clause, src, scope, stdin, depth);
        this.walkList(node.then, src, scope.fork(), stdin, depth);
        for (const e of node.elif) {
          this.walkList(e.clause, src, scope, stdin, depth);
          this.walkList(e.then, src, scope.fork(), stdin, depth);
        }
        this.walkList(node.else, src, scope.fork(), stdin, depth);
        return UNKNOWN_OUTPUT;
      case "While":
        this.walkList(node.clause, src, scope, stdin, depth);
        this.walkList(node.body, src, scope.fork(), stdin, depth);
        return UNKNOWN_OUTPUT;
      case "For":
      case "Select":
        this.walkLoop(node.name.value, node.wordlist, node.body, src, scope, stdin, depth);
        return UNKNOWN_OUTPUT;
      case "Case": {
        this.walkWords([node.word], src, scope, depth);
        for (const item of node.items) {
          this.walkWords(item.pattern, src, scope, depth);
          this.walkList(item.body, src, scope.fork(), stdin, depth);
        }
        return UNKNOWN_OUTPUT;
      }
      case "TestCommand":
      case "ArithmeticCommand":
      case "ArithmeticFor": {
        const nested: NestedScript[] = [];
        collectScripts(node, src, nested);
        this.walkNested(nested, scope, depth);
        if (node.type === "ArithmeticFor") this.walkList(node.body, src, scope.fork(), stdin, depth);
        return UNKNOWN_OUTPUT;
      }
      case "Function":
        // A function that pipes into itself or runs itself in the background is a process bomb.
        if (selfSpawning(node.name.text, src.text.slice(node.pos, node.end))) this.sink.remoteEffect({ effect: "destroy-all", target: "system", program: node.name.text, resource: "every process slot", span: spanIn(src, node.pos, node.end), via: "a function that spawns itself (a process bomb)" });
        // Defining a function runs nothing, but it is defined to be called: analyse its body once.
        if (node.body.type === "CompoundList") this.walkList(node.body, src, scope.fork(), NO_STDIN, depth);
        else this.walkNode(node.body, src, scope.fork(), NO_STDIN, depth);
        return UNKNOWN_OUTPUT;
      case "Coproc":
        if (node.body.type === "CompoundList") this.walkList(node.body, src, scope.fork(), NO_STDIN, depth);
        else this.walkNode(node.body, src, scope.fork(), NO_STDIN, depth);
        return UNKNOWN_OUTPUT;
      case "Redirected": {
        const nested: NestedScript[] = [];
        const input = this.applyRedirects(node.redirects, src, scope, nested, stdin);
        this.walkNested(nested, scope, depth);
        const out = this.walkNode(node.command, src, scope, input, depth);
        return stdoutToFile(node.redirects) ? this.consumed(out) : out;
      }
    }
  }

  private walkLoop(name: string, wordlist: readonly Word[] | undefined, body: CompoundList, src: Code, scope: Scope, stdin: Stdin, depth: number): void {
    const nested: NestedScript[] = [];
    const values: Sym[] = [];
    for (const w of wordlist ?? []) {
      const a = evalWord(w, src, scope, nested);
      if (a.words) for (const x of a.words) values.push({ kind: "literal", value: x.value! });
      else if (a.under) values.push({ kind: "under", dirs: a.under });
      else if (!known(a)) values.push({ kind: "unknown" });
      else if (a.glob) values.push(globSym(a.value, scope));
      else values.push({ kind: "literal", value: a.value });
    }
    this.walkNested(nested, scope, depth);
    if (!wordlist) values.push({ kind: "unknown" }); // `for x; do` iterates over "$@"
    const runs = values.length > 0 && values.length <= MAX_LOOP_VALUES ? values : [{ kind: "unknown" } as Sym];
    for (const v of runs) {
      const s = scope.fork();
      s.set(name, v);
      this.walkList(body, src, s, stdin, depth);
    }
  }

  private walkWords(words: readonly Word[], src: Code, scope: Scope, depth: number): void {
    const nested: NestedScript[] = [];
    for (const w of words) evalWord(w, src, scope, nested);
    this.walkNested(nested, scope, depth);
  }

  private walkNested(nested: NestedScript[], scope: Scope, depth: number): void {
    for (const n of nested) {
      this.reportErrors(n.script, n.code);
      if (depth + 1 > MAX_DEPTH) {
        this.uncertain(`command substitutions are nested more than ${MAX_DEPTH} levels deep`, spanIn(n.code, n.script.pos, n.script.end));
        continue;
      }
      const shownBefore = this.sink.shownCount();
      const printed = this.walkStatements(n.script.commands, n.code, scope.fork(), NO_STDIN, depth + 1);
      // What a substitution prints becomes a word, not output the agent sees: the word carries it.
      n.secret = printed.secret ?? this.sink.consumeSince(shownBefore);
      this.sink.consume(printed.secret);
      this.sink.consumeSince(shownBefore);
      // Only a listing's own output: one simple command. A filtered listing (`ls | grep .env`)
      // names files picked at run time, which stays unknown.
      if (n.script.commands.length === 1 && n.script.commands[0].command.type === "Command") n.printed = printed;
    }
  }

  private walkCommand(cmd: ShCommand, src: Code, scope: Scope, stdin: Stdin, depth: number): Stdin {
    const nested: NestedScript[] = [];
    const assignments: [string, Arg][] = [];
    const arrays: [string, string[] | undefined][] = [];
    let prefixCount = 0;
    for (const p of cmd.prefix) {
      if (p.type !== "Assignment") continue;
      if (p.value.type === "Word") {
        assignments.push([p.name, evalWord(p.value, src, scope, nested)]);
        prefixCount++;
      } else arrays.push([p.name, arrayElements(p.value.elements.map((w) => evalWord(w, src, scope, nested)), p.append)]);
    }
    const argv: Arg[] = [];
    if (cmd.name) argv.push(evalWord(cmd.name, src, scope, nested));
    for (const s of cmd.suffix) {
      if (s.type === "Word") argv.push(evalWord(s, src, scope, nested));
      else if (s.type === "Assignment") {
        // `export A=1`, `local x=$(…)`: the builtin receives `A=1`; `local -a x=(…)` an array.
        if (s.value.type !== "Word") arrays.push([s.name, arrayElements(s.value.elements.map((w) => evalWord(w, src, scope, nested)), s.append)]);
        const v = s.value.type === "Word" ? evalWord(s.value, src, scope, nested) : undefined;
        const span = spanIn(src, s.pos, s.end);
        const value = v && known(v) ? `${s.name}=${v.value}` : undefined;
        argv.push(shapedArg(value !== undefined ? { text: s.text, span, value, code: { text: value, base: span.start } } : { text: s.text, span, unknown: true }));
        if (v) assignments.push([s.name, v]);
      }
    }
    const input = this.applyRedirects(cmd.redirects, src, scope, nested, stdin);
    this.walkNested(nested, scope, depth);
    if (nested.some((n) => n.secret)) markSecretWords(this.sink, nested, argv, assignments);
    // `GIT_SSH_COMMAND='…' git fetch`, `export EDITOR='…'`: a program will run the value (issue 36).
    for (const [name, v] of assignments) {
      const carried = carriedByEnv(name, v);
      if (carried?.code) this.runCode(carried.code, scope.fork(), NO_STDIN, depth + 1, `$${name}`);
    }
    // A word that is what a listing prints (`$(git ls-files)`, `$(find DIR)`) is some path below
    // the folders it lists, as the same listing piped to xargs is.
    for (let i = 0; i < argv.length; i++) {
      const printed = argv[i].printedBy?.printed;
      if (printed?.kind === "under") argv[i] = shapedArg({ ...argv[i], under: printed.dirs, named: printed.named, unknown: undefined, printedBy: undefined });
    }
    // Brace expansion comes first in bash: `{rm,-rf,x}` is the three words rm -rf x.
    if (argv.some((a) => a.braces)) argv.splice(0, argv.length, ...argv.flatMap(braceWords));
    // An array expanded as words (`"${cmd[@]}"`) is its elements.
    if (argv.some((a) => a.words)) argv.splice(0, argv.length, ...argv.flatMap((a) => a.words ?? [a]));

    const declares = argv.length > 0 && known(argv[0]) && DECLARATIONS.has(argv[0].value);
    if (argv.length === 0 || declares) {
      // Plain assignments change the shell's variables for the commands that follow.
      for (const [name, v] of assignments) scope.set(name, known(v) ? { kind: "literal", value: v.value, ...(v.code && { code: v.code }) } : v.under ? { kind: "under", dirs: v.under } : { kind: "unknown" });
      for (const [name, elements] of arrays) scope.setArray(name, elements);
      if (argv.length === 0) return UNKNOWN_OUTPUT;
    }
    // `A=1 B=2 cmd`: the assignments are cmd's environment (GIT_CONFIG_COUNT… for git).
    let runScope = scope;
    if (!declares && prefixCount > 0) {
      runScope = scope.fork();
      for (const [name, v] of assignments.slice(0, prefixCount)) runScope.set(name, known(v) ? { kind: "literal", value: v.value, ...(v.code && { code: v.code }) } : { kind: "unknown" });
    }
    const out = this.run(argv, runScope, input, spanIn(src, cmd.pos, cmd.end), depth).stdout;
    // `CDPATH=~ cd .ssh`: the prefix assignment is the builtin's alone, its directory change is the shell's.
    if (runScope !== scope) scope.adoptDirectory(runScope);
    if (!stdoutToFile(cmd.redirects)) return out;
    this.remember(cmd.redirects, src, scope, out);
    return this.consumed(out);
  }

  /**
   * Text written to a file in this command line (`cat > drop.sql <<EOF`): kept under the file's
   * path, so a later `psql -f drop.sql` in the same line runs what was written (issue 36).
   */
  private remember(redirects: readonly Redirection[], src: Code, scope: Scope, out: Stdin): void {
    if (out.kind !== "text" || scope.cwd === undefined) return;
    const r = redirects.find((x) => x.type === "Redirect" && (x.operator === ">" || x.operator === ">|") && x.target);
    if (!r || r.type !== "Redirect" || !r.target) return;
    const target = evalWord(r.target, src, scope, []);
    const abs = known(target) ? resolvePath(target.value, { cwd: scope.cwd, home: scope.home }) : undefined;
    if (abs !== undefined) scope.set(writtenFileKey(abs), { kind: "literal", value: out.code.text, code: out.code });
  }

  /** Output written to a file is not shown to the agent: a secret in it is consumed. */
  private consumed(out: Stdin): Stdin {
    if (!out.secret) return out;
    this.sink.consume(out.secret);
    return { ...out, secret: undefined };
  }

  /** Redirections: files written or read, and the stdin they give the command. */
  private applyRedirects(redirects: readonly Redirection[], src: Code, scope: Scope, nested: NestedScript[], stdin: Stdin): Stdin {
    let input = stdin;
    for (const r of redirects) {
      if (r.type === "HereDoc") {
        input = { kind: "text", code: evalHereDocBody(r.body, r.delimiter?.quoted ?? false, src, scope, nested) };
        continue;
      }
      if (!r.target) continue;
      const target = evalWord(r.target, src, scope, nested);
      if (r.type === "HereString") {
        input = target.code ? { kind: "text", code: target.code } : { kind: "unknown", from: "a here-string" };
        continue;
      }
      const op = r.operator;
      const inv = { scope };
      if (op === "<" && target.pipe && target.output) {
        // `< <(echo 'DROP DATABASE app')`: what the process substitution prints is the input.
        input = { kind: "text", code: target.output };
        continue;
      }
      if (op === "<" || op === "<>") {
        this.path(inv, target, "read", false, `${op} redirection`);
        const abs = known(target) && scope.cwd !== undefined ? resolvePath(target.value, { cwd: scope.cwd, home: scope.home }) : undefined;
        input = abs !== undefined ? { kind: "unknown", from: "a file", file: abs } : { kind: "unknown", from: "a file" };
      }
      if (op === ">" || op === ">>" || op === ">|" || op === "&>" || op === "&>>" || op === "<>" || (op === ">&" && !/^[0-9-]+$/.test(target.value ?? ""))) {
        this.path(inv, target, "write", false, `${op} redirection`);
      }
    }
    return input;
  }
}

/** A function body that calls its own name in a pipe or in the background: `:(){ :|:& };:`. */
function selfSpawning(name: string, text: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s;{|&(])${n}\\s*(\\||&(?!&))`).test(text.slice(text.indexOf("{") + 1 || text.indexOf("(") + 1));
}

/** Where the text written to a file earlier in the line is kept in the scope (a name no variable can have). */
export function writtenFileKey(abs: string): string {
  return `written ${abs}`;
}

/** Is standard output redirected to a file (not the terminal, not stderr)? */
function stdoutToFile(redirects: readonly Redirection[]): boolean {
  return redirects.some(
    (r) => r.type === "Redirect" && /^(>|>>|>\||&>|&>>)$/.test(r.operator) && (r.descriptor === undefined || (r.descriptor.type === "FileDescriptor" && r.descriptor.value === 1)) && !/^\/dev\/(stdout|stderr|tty)$|^&?[12]$/.test(r.target?.text ?? ""),
  );
}

/** Words and assignments built from a substitution that prints a secret carry it (secret-flow.ts). */
function markSecretWords(sink: Sink, nested: readonly NestedScript[], argv: readonly Arg[], assignments: readonly [string, Arg][]): void {
  for (const n of nested) {
    if (!n.secret) continue;
    const at = spanIn(n.code, n.script.pos, n.script.end);
    const inside = (a: Arg) => a.span.start <= at.start && at.end <= a.span.end;
    for (const a of argv) if (inside(a)) (sink.argSecrets ??= new WeakMap()).set(a, n.secret);
    for (const [name, a] of assignments) if (inside(a)) (sink.secretVars ??= new Set()).add(name);
  }
}

/**
 * The elements of `name=(…)` when each is one known word (no glob, no brace, no expansion only
 * known at run time); `name+=(…)` appends to what is not tracked: unknown.
 */
function arrayElements(words: readonly Arg[], append: boolean | undefined): string[] | undefined {
  if (append) return undefined;
  const out: string[] = [];
  for (const w of words) {
    if (w.words) out.push(...w.words.map((x) => x.value!));
    else if (known(w) && !w.glob && !w.braces) out.push(w.value);
    else return undefined;
  }
  return out;
}

/** Where an alias is kept in the scope (a name no variable can have). */
export function aliasKey(name: string): string {
  return `alias ${name}`;
}

function quoteWord(v: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`;
}

/** A glob in a for-list: each value is some path below the glob's fixed prefix. */
function globSym(pattern: string, scope: Scope): Sym {
  const parts = pattern.split("/");
  const i = parts.findIndex((p) => /[*?[\]{}]/.test(p));
  const base = parts.slice(0, Math.max(0, i)).join("/") || (pattern.startsWith("/") ? "/" : ".");
  if (scope.cwd === undefined && !base.startsWith("/")) return { kind: "unknown" };
  const abs = base.startsWith("/") ? base : `${scope.cwd}/${base}`;
  // A glob in the last segment only (`.e*`, `*.pem`): each value is an entry of that name, so a
  // loop over it reaches the zero-access names it can match (issue 36).
  const named = i === parts.length - 1 && !/^[*?]+$/.test(parts[i]) ? parts[i] : undefined;
  return { kind: "under", dirs: [abs.replace(/\/\.$/, "")], ...(named !== undefined && { named }) };
}

/** Scripts inside `[[ ]]` / `(( ))` expressions (not the body of an arithmetic for: walked apart). */
function collectScripts(node: SyntaxNode, src: Code, out: NestedScript[], budget = { n: 500 }): void {
  forEachChild(node, (child) => {
    if (budget.n-- <= 0 || child.type === "CompoundList") return;
    if ((child.type === "CommandExpansion" || child.type === "ArithmeticCommandExpansion" || child.type === "ProcessSubstitution") && child.script) {
      out.push({ script: child.script, code: scriptCode(child.script, child.pos, child.end, src), kind: "command" });
      return;
    }
    collectScripts(child, src, out, budget);
  });
}
