// Interpreters: where their code comes from (`-c`/`-e`/`-r` arguments, stdin, a script file)
// and how it is analysed (../inline.ts). `perl -i`/`ruby -i`/`gawk -i inplace` edit their file
// operands in place. The invocation is shown with the inline code as DATA: code is judged by what
// it calls, never by the words it prints (`python -c "print('rm -rf /')"` is allowed).
import { CodeBuilder, type Code } from "../code";
import { analyzeInline } from "../inline";
import type { Language } from "../inline-language";
import { DATA } from "../normalize";
import { has, parseOptions, stopAtOperand, valuesOf, type OptionSpec } from "../options";
import type { Handler, Invocation, Runner } from "../runner";
import { shapedArg, known, syntheticArg, type Arg } from "../words";
import { mention, mentionAll, shown } from "./common";

interface InterpreterSpec extends OptionSpec {
  lang: Language;
  /** Options whose value is code. */
  codeOptions: string[];
  /** Options after which the remaining words are arguments of the program (`python -m mod args`). */
  stopOptions?: string[];
  /** `-i` edits the file operands in place. */
  inPlace?: boolean;
}

const SPECS: Record<string, InterpreterSpec> = {
  python: { lang: "python", shortWithValue: "cmWXQ", codeOptions: ["c"], stopOptions: ["c", "m"] },
  node: { lang: "node", shortWithValue: "eprC", longWithValue: ["eval", "print", "require", "import", "input-type", "conditions", "env-file", "loader"], codeOptions: ["e", "p", "eval", "print"], stopOptions: ["e", "p", "eval", "print"] },
  bun: { lang: "node", shortWithValue: "epr", longWithValue: ["eval", "print", "preload", "cwd"], codeOptions: ["e", "p", "eval", "print"] },
  deno: { lang: "node", shortWithValue: "e", codeOptions: ["e"], stopOptions: ["e"] },
  ruby: { lang: "ruby", shortWithValue: "eIrCEF", shortOptionalValue: "i0x", codeOptions: ["e"], inPlace: true },
  perl: { lang: "perl", shortWithValue: "eEIMmF", shortOptionalValue: "i0lxdD", codeOptions: ["e", "E"], inPlace: true },
  php: { lang: "php", shortWithValue: "rfdcBERF", codeOptions: ["r"] },
};

/** python3.12 → python, nodejs → node, perl5.36 → perl. */
export function interpreterFamily(name: string): string | undefined {
  if (/^(python[0-9.]*|pypy[0-9.]*)$/.test(name)) return "python";
  if (/^(node|nodejs)$/.test(name)) return "node";
  if (/^ruby[0-9.]*$/.test(name)) return "ruby";
  if (/^perl[0-9.]*$/.test(name)) return "perl";
  if (/^php[0-9.]*$/.test(name)) return "php";
  if (/^(bun|deno)$/.test(name)) return name;
  return undefined;
}

function joinCodes(codes: Code[]): Code {
  if (codes.length === 1) return codes[0];
  const b = new CodeBuilder();
  codes.forEach((c, i) => {
    if (i > 0) b.push("\n", () => c.base);
    b.pushCode(c);
  });
  return b.build(codes[0]?.base ?? 0);
}

/**
 * perl's `-0` and `-l` take only digits (`-0777`, `-l012`): in `-0pi` or `-lne` the letters after
 * them are more options, not their value (`-0pi` = `-0 -pi`).
 */
function splitPerlBundle(a: Arg): Arg[] {
  const v = a.value;
  if (v === undefined || !/^-[^-]/.test(v)) return [a];
  const letters = v.slice(1);
  for (let j = 0; j < letters.length; j++) {
    const c = letters[j];
    if ("eEIMmFixdD".includes(c)) break;
    if (c !== "0" && c !== "l") continue;
    const digits = /^(?:x[0-9A-Fa-f]+|[0-7]*)/.exec(letters.slice(j + 1))![0];
    const k = j + 1 + (c === "0" ? digits.length : /^[0-7]*/.exec(letters.slice(j + 1))![0].length);
    if (k >= letters.length) return [a];
    return [syntheticArg("-" + letters.slice(0, k), a.span), ...splitPerlBundle(syntheticArg("-" + letters.slice(k), a.span))];
  }
  return [a];
}

const interpreter =
  (spec: InterpreterSpec): Handler =>
  (inv, r) => {
    let args = inv.args;
    // `deno eval CODE`, `bun run file`, `bun -e`.
    if (inv.name === "deno" && args[0]?.value === "eval") args = [shapedArg({ ...args[0], value: "-e", text: "-e" }), ...args.slice(1)];
    if (spec.lang === "perl") args = args.flatMap(splitPerlBundle);
    const p = parseOptions(args, stopAtOperand(spec));
    const stopAt = p.options.findIndex((o) => spec.stopOptions?.includes(o.name));
    const codeArgs = valuesOf(p, ...spec.codeOptions);
    const dataArgs = new Set<Arg>(codeArgs);
    r.emit(inv, { head: [inv.name], args: args.map((a) => (dataArgs.has(a) ? DATA : shown(a))), fixedOrder: true });
    for (const a of codeArgs) if (!a.code || a.unknown) r.uncertain(`${inv.name} runs code that is only known when the command runs`, a.span);
    const codes = codeArgs.filter((a) => a.code).map((a) => a.code!);
    const moduleRun = p.options.find((o) => o.name === "m" && spec.lang === "python");
    const operands = p.operands;
    if (codes.length) analyzeInline(spec.lang, joinCodes(codes), inv, r);
    else if (!moduleRun && (operands.length === 0 || operands[0].value === "-")) {
      if (inv.stdin.kind === "text") analyzeInline(spec.lang, inv.stdin.code, inv, r);
      else if (inv.stdin.kind === "unknown" && operands[0]?.value === "-") r.uncertain(`${inv.name} runs code read from ${inv.stdin.from}`, inv.span);
    }
    // Operands: the script file (unless code was given) then its arguments; in-place edits write them.
    const files = codes.length || moduleRun || stopAt >= 0 ? operands : operands.slice(1);
    if (!codes.length && !moduleRun && operands[0]) mention(inv, r, operands[0]);
    if (spec.inPlace && has(p, "i")) for (const f of files) r.path(inv, f, "write", false, `${inv.name} -i`);
    else mentionAll(inv, r, files);
  };

/** awk: the program (first operand, or -f file) can write files, pipe to commands, call system(). */
const awk: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "fvFei", longWithValue: ["file", "assign", "field-separator", "source", "include"] });
  const progFiles = valuesOf(p, "f", "file");
  const sources = valuesOf(p, "e", "source");
  const operands = [...p.operands];
  if (progFiles.length === 0 && sources.length === 0 && operands.length) sources.push(operands.shift()!);
  const inPlace = valuesOf(p, "i", "include").some((v) => v.value === "inplace");
  const data = new Set(sources);
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => (data.has(a) ? DATA : shown(a))), fixedOrder: true });
  for (const f of progFiles) r.path(inv, f, "read", false, "awk -f");
  for (const s of sources) if (s.code) awkProgram(s, inv, r);
  for (const f of operands) {
    if (known(f) && /^[A-Za-z_]\w*=/.test(f.value)) continue;
    r.path(inv, f, inPlace ? "write" : "read", false, inPlace ? "awk -i inplace" : "awk");
  }
};

function awkProgram(prog: Arg, inv: Invocation, r: Runner): void {
  const text = prog.code!.text;
  const lit = (m: RegExpExecArray, group: number): Arg => subArgAt(prog, m.index + m[0].lastIndexOf(m[group]) + 1, m[group].slice(1, -1));
  let m: RegExpExecArray | null;
  const write = /\b(?:print|printf)\b[^;}|>]*>>?\s*("[^"]*")/g;
  while ((m = write.exec(text))) r.path(inv, lit(m, 1), "write", false, "awk print >");
  const read = /\bgetline\b[^;}]*<\s*("[^"]*")/g;
  while ((m = read.exec(text))) r.path(inv, lit(m, 1), "read", false, "awk getline <");
  const shell = /\bsystem\s*\(\s*("[^"]*")|\b(?:print|printf)\b[^;}]*\|\s*("[^"]*")|("[^"]*")\s*\|\s*getline/g;
  while ((m = shell.exec(text))) {
    const g = m[1] ? 1 : m[2] ? 2 : 3;
    const a = lit(m, g);
    if (a.code) r.runCode(a.code, inv.scope.child(), { kind: "none" }, inv.depth + 1, "awk");
  }
  const dynamicSystem = /\bsystem\s*\(\s*[^"\s)]/.exec(text);
  if (dynamicSystem) r.uncertain("awk runs a command built at run time with system()", prog.span);
}

/** The part of an argument's code starting at character `start`, `value` long. */
function subArgAt(a: Arg, start: number, value: string): Arg {
  const c = a.code!;
  const offsets = c.offsets ? c.offsets.slice(start, start + value.length) : undefined;
  const base = offsets?.[0] ?? c.base + start;
  const code: Code = offsets ? { text: value, offsets, base } : { text: value, base };
  return shapedArg({ value, text: value, span: { start: base, end: (offsets?.[offsets.length - 1] ?? base + value.length - 1) + 1 }, code });
}

export function interpreterHandlers(): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const [name, spec] of Object.entries(SPECS)) out[name] = interpreter(spec);
  for (const n of ["awk", "gawk", "mawk", "nawk", "busybox-awk"]) out[n] = awk;
  return out;
}
