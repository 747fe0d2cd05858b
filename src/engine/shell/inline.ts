// Inline code handed to interpreters (`python -c`, `node -e`, `ruby -e`, `perl -e`, `php -r`,
// awk programs). Not a parser for those languages: a scan for the calls that matter to the policy,
// with their string-literal arguments:
//   - calls that run a shell command (os.system, subprocess.run, execSync, system, backticks…):
//     the string is parsed as shell code, an argv list is run as a command;
//   - recursive deletes (shutil.rmtree, fs.rmSync(…, {recursive}), FileUtils.rm_rf, rmtree…):
//     a recursive delete effect AND an executed command `rm -r -f PATH`, so rm patterns fire too;
//   - plain deletes (`rm PATH` / `rmdir PATH`), writes, reads, moves, copies, chmod (`chmod 777 P`);
//   - every other string literal that could be a path counts as a read (naming a zero-access file).
// A non-literal argument where a command or a modified path is expected is an Uncertainty.
import { sliceCode, spanIn, type Code } from "./code";
import type { Language } from "./inline-language";
import { MAX_INLINE_CODE } from "./limits";
import { evalPathExpression } from "./path-expr";
import { runSql } from "./programs/sql";
import type { Invocation, Runner } from "./runner";
import { shapedArg, syntheticArg, type Arg } from "./words";

type Op = "sql" | "shell" | "argv" | "rmrf" | "rmr" | "rmf" | "delete" | "rmdir" | "write" | "read" | "open" | "move" | "copy" | "chmod" | "chmodModeFirst" | "jsRm" | "pathlib" | "pathRoot" | "perlOpen";

interface Literal {
  value: string;
  start: number;
  end: number;
}

interface CallArg {
  literal?: Literal;
  list?: Literal[];
  raw: string;
}

const PY: [RegExp, Op][] = [
  [/\b(?:os\.(?:system|popen)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput)\s*\(/g, "shell"],
  [/\bshutil\.rmtree\s*\(/g, "rmrf"],
  [/\bos\.(?:remove|unlink)\s*\(/g, "delete"],
  [/\bos\.(?:rmdir|removedirs)\s*\(/g, "rmdir"],
  [/\b(?:os\.(?:rename|replace)|shutil\.move)\s*\(/g, "move"],
  [/\bshutil\.(?:copy|copy2|copyfile|copytree)\s*\(/g, "copy"],
  [/(?<![\w.])(?:io\.|codecs\.)?open\s*\(/g, "open"],
  [/\bos\.chmod\s*\(/g, "chmod"],
  [/\b(?:pathlib\.)?Path\s*\(/g, "pathlib"],
  [/\b(?:pathlib\.)?Path\.(?:home|cwd)\s*\(\s*\)/g, "pathRoot"],
  [/\.(?:execute|executescript|executemany)\s*\(/g, "sql"],
];
const JS: [RegExp, Op][] = [
  [/\b(?:execSync|exec)\s*\(/g, "shell"],
  [/\b(?:spawnSync|spawn|execFileSync|execFile)\s*\(/g, "argv"],
  [/\.(?:rmSync|rm|rmdirSync|rmdir)\s*\(/g, "jsRm"],
  [/\.(?:unlinkSync|unlink)\s*\(/g, "delete"],
  [/\.(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|truncateSync|truncate|mkdirSync)\s*\(/g, "write"],
  [/\.(?:readFileSync|readFile|createReadStream|readdirSync|readdir|opendirSync)\s*\(/g, "read"],
  [/\.(?:renameSync|rename)\s*\(/g, "move"],
  [/\.(?:copyFileSync|copyFile|cpSync)\s*\(/g, "copy"],
  [/\.(?:chmodSync|chmod)\s*\(/g, "chmod"],
  [/\bDeno\.(?:removeSync|remove)\s*\(/g, "jsRm"],
  [/\bDeno\.(?:writeTextFileSync|writeTextFile)\s*\(/g, "write"],
  [/\bDeno\.(?:readTextFileSync|readTextFile)\s*\(/g, "read"],
  [/\bBun\.write\s*\(/g, "write"],
  [/\bBun\.file\s*\(/g, "read"],
  [/\.(?:query|prepare|execute)\s*\(/g, "sql"],
];
const RUBY: [RegExp, Op][] = [
  [/(?<![\w.])(?:system|exec|spawn|Kernel\.system|IO\.popen|Open3\.\w+)\b\s*\(?/g, "shell"],
  [/\bFileUtils\.(?:rm_rf|rmtree|remove_dir|remove_entry_secure|remove_entry)\b\s*\(?/g, "rmrf"],
  [/\bFileUtils\.rm_r\b\s*\(?/g, "rmr"],
  [/\bFileUtils\.rm_f\b\s*\(?/g, "rmf"],
  [/\b(?:FileUtils\.(?:rm|remove)|File\.(?:delete|unlink))\b\s*\(?/g, "delete"],
  [/\b(?:Dir\.(?:rmdir|delete|unlink)|FileUtils\.rmdir)\b\s*\(?/g, "rmdir"],
  [/\b(?:(?:File|IO)\.(?:write|binwrite)|FileUtils\.touch)\b\s*\(?/g, "write"],
  [/\bFile\.open\b\s*\(?/g, "open"],
  [/\b(?:File|IO)\.(?:read|readlines|foreach|binread)\b\s*\(?/g, "read"],
  [/\b(?:FileUtils\.(?:mv|move)|File\.rename)\b\s*\(?/g, "move"],
  [/\bFileUtils\.(?:cp_r|cp|copy)\b\s*\(?/g, "copy"],
  [/\b(?:File|FileUtils)\.chmod(?:_R)?\b\s*\(?/g, "chmodModeFirst"],
  [/\.(?:execute|execute_batch|query)\s*\(/g, "sql"],
];
const PERL: [RegExp, Op][] = [
  [/(?<![\w:$@%])(?:system|exec)\b\s*\(?/g, "shell"],
  [/\b(?:File::Path::)?(?:rmtree|remove_tree)\b\s*\(?/g, "rmrf"],
  [/(?<![\w:$@%])unlink\b\s*\(?/g, "delete"],
  [/(?<![\w:$@%])rmdir\b\s*\(?/g, "rmdir"],
  [/(?<![\w:$@%])open\b\s*\(?/g, "perlOpen"],
  [/(?<![\w:$@%])rename\b\s*\(?/g, "move"],
  [/(?<![\w:$@%])chmod\b\s*\(?/g, "chmodModeFirst"],
];
const PHP: [RegExp, Op][] = [
  [/\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(/g, "shell"],
  [/\bunlink\s*\(/g, "delete"],
  [/\brmdir\s*\(/g, "rmdir"],
  [/\bfile_put_contents\s*\(/g, "write"],
  [/\b(?:file_get_contents|readfile|file)\s*\(/g, "read"],
  [/\bfopen\s*\(/g, "open"],
  [/\brename\s*\(/g, "move"],
  [/\bcopy\s*\(/g, "copy"],
  [/\bchmod\s*\(/g, "chmod"],
  [/->(?:exec|query|prepare)\s*\(/g, "sql"],
];
// Lua as Neovim runs it (`:lua`, issue 36): os.execute/io.popen and vim.fn.system run shell code.
const LUA: [RegExp, Op][] = [
  [/\b(?:os\.execute|io\.popen|vim\.fn\.system|vim\.fn\.systemlist)\s*\(/g, "shell"],
  [/\bos\.remove\s*\(/g, "delete"],
  [/\bos\.rename\s*\(/g, "move"],
  [/\bio\.open\s*\(/g, "open"],
  [/\bio\.lines\s*\(/g, "read"],
];
const TABLES: Record<Language, [RegExp, Op][]> = { python: PY, node: JS, ruby: RUBY, perl: PERL, php: PHP, lua: LUA };

/**
 * Python modules reached by another name: `import subprocess as sp` (sp.run), `from shutil import
 * rmtree` (rmtree), `__import__('shutil').rmtree`. Each PY entry naming the module is also
 * compiled with the module written that way. Only computed when the code imports something.
 */
function pythonAliases(text: string): [RegExp, Op][] {
  if (!/\bimport\b|__import__/.test(text)) return [];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const spellings: [string, string][] = [];
  for (const m of text.matchAll(/\bimport\s+([\w.]+)\s+as\s+(\w+)/g)) spellings.push([m[1], `\\b${esc(m[2])}\\.`]);
  for (const m of text.matchAll(/\bfrom\s+([\w.]+)\s+import\b/g)) spellings.push([m[1], "(?<![\\w.])"]);
  for (const m of text.matchAll(/__import__\s*\(\s*["']([\w.]+)["']\s*\)\s*\./g)) spellings.push([m[1], `__import__\\s*\\(\\s*["']${esc(m[1])}["']\\s*\\)\\s*\\.`]);
  const out: [RegExp, Op][] = [];
  for (const [module, spelled] of spellings.slice(0, 8)) {
    // The module as written in a PY regex source (`shutil\.`), optionally after `\b`.
    const finder = new RegExp(`(?<![A-Za-z0-9_])(?:\\\\b)?${esc(`${esc(module)}\\.`)}`, "g");
    for (const [re, op] of PY) {
      const src = re.source.replace(finder, () => spelled);
      if (src !== re.source) out.push([new RegExp(src, "g"), op]);
    }
  }
  return out;
}

/** String literal at `i` (with Python prefixes, triple quotes); undefined if none or interpolated. */
function readString(code: string, i: number): { lit?: Literal; end: number } | undefined {
  let j = i;
  const prefix = /^[rRbBuUfF]{0,2}(?=["'`])/.exec(code.slice(i, i + 3));
  if (!prefix) return undefined;
  j += prefix[0].length;
  const raw = /[rR]/.test(prefix[0]);
  const interpolating = /[fF]/.test(prefix[0]);
  const q = code[j];
  const triple = q !== "`" && code.startsWith(q.repeat(3), j);
  const close = triple ? q.repeat(3) : q;
  let k = j + close.length;
  let value = "";
  const start = k;
  while (k < code.length && !code.startsWith(close, k)) {
    if (code[k] === "\\" && !raw && k + 1 < code.length) {
      const n = code[k + 1];
      value += n === "n" ? "\n" : n === "t" ? "\t" : n;
      k += 2;
      continue;
    }
    value += code[k++];
  }
  const end = Math.min(code.length, k + close.length);
  const dynamic = interpolating || (q === "`" && value.includes("${")) || (q === '"' && /[$@][{\w]/.test(value) && false);
  return { lit: dynamic ? undefined : { value, start, end: k }, end };
}

/** Arguments of a call whose `(` (or first argument, for paren-less calls) starts at `i`. */
function readArgs(code: string, i: number, paren: boolean): { args: CallArg[]; end: number } {
  const args: CallArg[] = [];
  let depth = 0;
  let cur: CallArg = { raw: "" };
  let listItems: Literal[] | undefined;
  let k = i;
  const push = () => {
    if (cur.raw.trim() !== "" || cur.literal) args.push(cur);
    cur = { raw: "" };
  };
  while (k < code.length) {
    const c = code[k];
    if (/[rRbBuUfF"'`]/.test(c) && (k === 0 || !/\w/.test(code[k - 1]) || /["'`]/.test(c))) {
      const s = readString(code, k);
      if (s) {
        if (depth === 0 && cur.raw.trim() === "" && s.lit && !listItems) cur.literal = s.lit;
        else if (listItems && depth === 1 && s.lit) listItems.push(s.lit);
        cur.raw += code.slice(k, s.end);
        k = s.end;
        continue;
      }
    }
    if (c === "(" || c === "[" || c === "{") {
      if (c === "[" && depth === 0 && cur.raw.trim() === "") listItems = [];
      depth++;
    } else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) {
        if (paren && c === ")") k++;
        break;
      }
      depth--;
      if (depth === 0 && listItems && c === "]") {
        cur.list = listItems;
        listItems = undefined;
      }
    } else if (c === "," && depth === 0) {
      push();
      k++;
      continue;
    } else if (!paren && depth === 0 && (c === ";" || c === "\n" || code.startsWith(" or ", k) || code.startsWith(" and ", k) || code.startsWith(" if ", k))) break;
    cur.raw += c;
    k++;
  }
  push();
  return { args, end: k };
}

export function analyzeInline(lang: Language, code: Code, inv: Invocation, r: Runner): void {
  const text = code.text.slice(0, MAX_INLINE_CODE);
  if (code.text.length > MAX_INLINE_CODE) r.uncertain(`${inv.name} code is too long to analyse`, spanIn(code, 0, code.text.length));
  const claimed = new Set<number>();
  const litArg = (l: Literal): Arg => syntheticArg(l.value, spanIn(code, l.start, l.end), sliceCode(code, l.start, l.end));
  const unknownArg = (a: CallArg | undefined, at: number): Arg => shapedArg({ text: a?.raw.trim() || "?", span: spanIn(code, at, at + (a?.raw.length ?? 1)), unknown: true });
  // A path built from known parts (`os.homedir() + '/.ssh/id_rsa'`, `os.path.join(…)`) is that path.
  const roots = { home: inv.scope.home, cwd: inv.scope.cwd };
  const built = (raw: string, at: number, length: number): Arg | undefined => {
    const value = evalPathExpression(raw, lang, roots);
    return value === undefined ? undefined : syntheticArg(value, spanIn(code, at, at + length));
  };
  const argOf = (a: CallArg | undefined, at: number): Arg => (a?.literal ? litArg(a.literal) : (a && built(a.raw, at, a.raw.length)) || unknownArg(a, at));
  const pathlibCall = (method: string, target: Arg, span: { start: number; end: number }, rest: string) => {
    if (method === "unlink" || method === "rmdir") {
      r.path(inv, target, "delete", false, `Path.${method}`);
      emitRm([], target, span, method === "unlink" ? "rm" : "rmdir");
    } else if (method === "read_text" || method === "read_bytes") r.path(inv, target, "read", false, `Path.${method}`);
    else if (method === "rename" || method === "replace") r.path(inv, target, "delete", true, `Path.${method}`);
    else if (method === "open") {
      const mode = /^\s*\.\s*open\s*\(\s*["']([^"']*)/.exec(rest)?.[1] ?? "r";
      r.path(inv, target, /[wax+]/.test(mode) ? "write" : "read", false, "Path.open");
    } else r.path(inv, target, "write", false, `Path.${method}`);
  };
  const emitRm = (flags: string[], a: Arg, span: { start: number; end: number }, prog = "rm") => {
    const shown = a.value ?? a.text;
    const text = [prog, ...flags, shown].join(" ");
    const bundled = flags.length > 1 ? [`${prog} -${flags.map((f) => f.slice(1)).join("")} ${shown}`] : [];
    r.sink.command(bundled.length ? { text, variants: bundled, span } : { text, span });
  };

  for (const [re, op] of lang === "python" ? [...PY, ...pythonAliases(text)] : TABLES[lang]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const paren = m[0].trimEnd().endsWith("(");
      const { args, end } = readArgs(text, m.index + m[0].length, paren);
      const span = spanIn(code, m.index, end);
      const at = m.index + m[0].length;
      for (const a of args) {
        if (a.literal) claimed.add(a.literal.start);
        for (const l of a.list ?? []) claimed.add(l.start);
      }
      const first = args[0];
      switch (op) {
        case "sql": {
          // db.execute("DROP TABLE t"): literal SQL runs like the SQL clients' (a built string is not known).
          const l = first?.literal;
          if (l) {
            const exact = sliceCode(code, l.start, l.end);
            runSql(inv, r, exact.text === l.value ? exact : { text: l.value, base: spanIn(code, l.start, l.end).start });
          }
          break;
        }
        case "shell":
        case "argv": {
          if (first?.list && first.list.length) r.run(first.list.map(litArg), inv.scope, { kind: "none" }, span, inv.depth + 1);
          // system("rm", "-rf", "x"): several literal strings are an argv, not shell code.
          else if (args.length > 1 && args.every((a) => a.literal)) r.run(args.map((a) => litArg(a.literal!)), inv.scope, { kind: "none" }, span, inv.depth + 1);
          else if (first?.literal && op === "argv") {
            const list = args[1]?.list ?? [];
            r.run([litArg(first.literal), ...list.map(litArg)], inv.scope, { kind: "none" }, span, inv.depth + 1);
          } else if (first?.literal) r.runCode(sliceCode(code, first.literal.start, first.literal.end).text === first.literal.value ? sliceCode(code, first.literal.start, first.literal.end) : { text: first.literal.value, base: spanIn(code, first.literal.start, first.literal.end).start }, inv.scope.child(), { kind: "none" }, inv.depth + 1, `${inv.name} code`);
          else if (first) r.uncertain(`${inv.name} code runs a command built at run time (\`${first.raw.trim().slice(0, 60)}\`)`, span);
          break;
        }
        case "rmrf":
        case "rmr":
        case "rmf":
        case "delete":
        case "rmdir":
        case "jsRm": {
          const targets = first?.list ? first.list.map(litArg) : [argOf(first, at)];
          let flags = op === "rmrf" ? ["-r", "-f"] : op === "rmr" ? ["-r"] : op === "rmf" ? ["-f"] : [];
          if (op === "jsRm") {
            const opts = args.slice(1).map((a) => a.raw).join(",");
            flags = [...(/recursive\s*:\s*true/.test(opts) ? ["-r"] : []), ...(/force\s*:\s*true/.test(opts) ? ["-f"] : [])];
          }
          const recursive = flags.includes("-r");
          for (const t of targets) {
            r.path(inv, t, "delete", recursive, `${inv.name} ${m[0].replace(/\s*\(?$/, "")}`);
            emitRm(flags, t, span, op === "rmdir" || (op === "jsRm" && /rmdir/.test(m[0]) && !recursive) ? "rmdir" : "rm");
          }
          break;
        }
        case "write":
        case "read":
          r.path(inv, argOf(first, at), op, false, `${inv.name} ${m[0].replace(/\s*\(?$/, "")}`);
          break;
        case "open": {
          const mode = args[1]?.literal?.value ?? /mode\s*=\s*["']([^"']*)/.exec(args.map((a) => a.raw).join(","))?.[1] ?? "r";
          r.path(inv, argOf(first, at), /[wax+]/.test(mode) ? "write" : "read", false, `${inv.name} open`);
          break;
        }
        case "perlOpen": {
          // open(FH, '>', PATH) or open(FH, '>PATH')
          const m2 = args[1]?.literal?.value;
          const target = args[2] ? argOf(args[2], at) : m2 !== undefined ? syntheticArg(m2.replace(/^\s*(\+?[<>]{1,2}|\|)?\s*/, ""), spanIn(code, args[1].literal!.start, args[1].literal!.end)) : undefined;
          const mode = (args[2] ? m2 : /^\s*(\+?[<>]{1,2})/.exec(m2 ?? "")?.[1]) ?? "<";
          if (target && target.value !== "") r.path(inv, target, /[>+]/.test(mode) ? "write" : "read", false, "perl open");
          break;
        }
        case "move":
          r.path(inv, argOf(first, at), "delete", true, `${inv.name} rename`);
          if (args[1]) r.path(inv, argOf(args[1], at), "write", false, `${inv.name} rename`);
          break;
        case "copy":
          r.path(inv, argOf(first, at), "read", true, `${inv.name} copy`);
          if (args[1]) r.path(inv, argOf(args[1], at), "write", true, `${inv.name} copy`);
          break;
        case "chmod":
        case "chmodModeFirst": {
          const [pathA, modeA] = op === "chmod" ? [args[0], args[1]] : [args[1], args[0]];
          const target = argOf(pathA, at);
          const mode = normalizeNumericMode(modeA?.raw.trim() ?? "");
          r.path(inv, target, "read", false, `${inv.name} chmod`);
          if (mode) r.sink.command({ text: `chmod ${mode} ${target.value ?? target.text}`, span });
          break;
        }
        case "pathlib": {
          const method = PATHLIB_METHOD.exec(text.slice(end))?.[1];
          if (!method || !first) break;
          // `Path(a, b)` joins its arguments.
          const target = (args.length > 1 && built(text.slice(m.index, end), m.index, end - m.index)) || argOf(first, at);
          pathlibCall(method, target, span, text.slice(end));
          break;
        }
        case "pathRoot": {
          // `Path.home() / '.ssh' / 'id_rsa'`, `Path.home().joinpath('.aws')`, then the method.
          const chain = pathChainEnd(text, m.index + m[0].length, text[m.index - 1] === "(");
          const method = PATHLIB_METHOD.exec(text.slice(chain))?.[1];
          if (!method) break;
          const receiver = text[m.index - 1] === "(" ? text.slice(m.index, chain).replace(/\)\s*$/, "") : text.slice(m.index, chain);
          const target = built(receiver, m.index, chain - m.index);
          if (target) pathlibCall(method, target, spanIn(code, m.index, chain), text.slice(chain));
          break;
        }
      }
    }
  }
  runBackticks(lang, code, text, inv, r, claimed);
  mentionLiterals(code, text, inv, r, claimed);
}

const PATHLIB_METHOD = /^\s*\.\s*(unlink|rmdir|write_text|write_bytes|touch|mkdir|read_text|read_bytes|open|chmod|rename|replace)\b/;

/**
 * Where a pathlib chain that starts at `i` (after `Path.home()`) ends: ` / 'x'` joins and
 * `.joinpath(…)` calls, and the `)` closing a parenthesised receiver when `parenthesised`.
 */
function pathChainEnd(text: string, i: number, parenthesised: boolean): number {
  let k = i;
  for (;;) {
    const slash = /^\s*\/\s*/.exec(text.slice(k));
    if (slash) {
      const s = readString(text, k + slash[0].length);
      if (!s?.lit) return k;
      k = s.end;
      continue;
    }
    const join = /^\s*\.\s*joinpath\s*\(/.exec(text.slice(k));
    if (join) {
      k = readArgs(text, k + join[0].length, true).end;
      continue;
    }
    if (parenthesised) {
      const close = /^\s*\)/.exec(text.slice(k));
      if (close) return k + close[0].length;
    }
    return k;
  }
}

/** Ruby/Perl/PHP backticks and %x()/qx{} run shell code. */
function runBackticks(lang: Language, code: Code, text: string, inv: Invocation, r: Runner, claimed: Set<number>): void {
  if (lang === "python" || lang === "node" || lang === "lua") return;
  const re = /`([^`]*)`|(?:%x|qx)([({[<|!])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    let start: number;
    let end: number;
    if (m[1] !== undefined) {
      start = m.index + 1;
      end = start + m[1].length;
    } else {
      const open = m[2];
      const close = { "(": ")", "{": "}", "[": "]", "<": ">" }[open] ?? open;
      start = m.index + m[0].length;
      end = text.indexOf(close, start);
      if (end < 0) end = text.length;
      re.lastIndex = end + 1;
    }
    claimed.add(start);
    r.runCode(sliceCode(code, start, end), inv.scope.child(), { kind: "none" }, inv.depth + 1, `${inv.name} backticks`);
  }
}

/** Any other string literal without blanks may be a path: reading it is naming it. */
function mentionLiterals(code: Code, text: string, inv: Invocation, r: Runner, claimed: Set<number>): void {
  const re = /(["'])((?:\\.|(?!\1)[^\\\n])*)\1/g;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(text)) && n++ < 200) {
    const start = m.index + 1;
    if (claimed.has(start)) continue;
    const v = m[2];
    if (v === "" || /\s/.test(v) || v.length > 1024) continue;
    r.path(inv, syntheticArg(v, spanIn(code, start, start + v.length), sliceCode(code, start, start + v.length)), "read", false, `${inv.name} code`);
  }
}

/** 0o777, 0777, 511 → "777"; other modes in octal digits; undefined when not a number. */
export function normalizeNumericMode(raw: string): string | undefined {
  let n: number;
  if (/^0o[0-7]+$/i.test(raw)) n = parseInt(raw.slice(2), 8);
  else if (/^0[0-7]+$/.test(raw)) n = parseInt(raw, 8);
  else if (/^\d+$/.test(raw)) n = parseInt(raw, 10);
  else if (/^["'][0-7]{3,4}["']$/.test(raw)) n = parseInt(raw.slice(1, -1), 8);
  else return undefined;
  return (n & 0o7777).toString(8);
}
