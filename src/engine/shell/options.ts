// A getopt-style reading of a program's arguments, driven by a small spec of which options take a
// value. Enough to tell operands from option values (`nice -n 19 rm`, `sed -e SCRIPT -i FILE`,
// `tar -czf OUT DIR`), which is what deciding "which words are paths" needs.
import { shapedArg, type Arg } from "./words";

export interface OptionSpec {
  /** Short options that take a value: attached (`-n19`) or as the next word (`-n 19`). */
  shortWithValue?: string;
  /** Short options whose value can only be attached (`sed -i.bak`). */
  shortOptionalValue?: string;
  /** Long options that take a value (`--file X` or `--file=X`); names without dashes. */
  longWithValue?: readonly string[];
  /** Long options whose value can only be attached with `=` (`--in-place=.bak`). */
  longOptionalValue?: readonly string[];
  /** Options stop at the first operand (`sudo -u x CMD -f`): the rest is the operand list. */
  stopAtOperand?: boolean;
  /** Single-dash long options (`find -name`, `openssl -in`): treat `-word` as one option. */
  singleDashLong?: boolean;
}

export interface ParsedOption {
  /** Letter for short options, name for long ones (no dashes). */
  name: string;
  value?: Arg;
  arg: Arg;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: Arg[];
  /** Index in the input of the first operand that follows a stop (`--`, or stopAtOperand). */
  restIndex: number;
  /** Index of the `--` word, or -1. */
  doubleDash: number;
}

export function parseOptions(args: readonly Arg[], spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Arg[] = [];
  const sv = spec.shortWithValue ?? "";
  const so = spec.shortOptionalValue ?? "";
  const lv = spec.longWithValue ?? [];
  const lo = spec.longOptionalValue ?? [];
  let restIndex = args.length;
  let doubleDash = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.value;
    if (v === undefined || v === "-" || !v.startsWith("-")) {
      if (spec.stopAtOperand) {
        restIndex = i;
        operands.push(...args.slice(i));
        break;
      }
      operands.push(a);
      continue;
    }
    if (v === "--") {
      doubleDash = i;
      restIndex = i + 1;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith("--") || (spec.singleDashLong && v.length > 2)) {
      const body = v.slice(v.startsWith("--") ? 2 : 1);
      const eq = body.indexOf("=");
      const name = eq >= 0 ? body.slice(0, eq) : body;
      if (eq >= 0) {
        const valueText = body.slice(eq + 1);
        const start = a.span.end - valueText.length;
        options.push({ name, arg: a, value: shapedArg({ value: valueText, text: valueText, span: { start, end: a.span.end }, code: { text: valueText, base: start } }) });
      } else if (lv.includes(name) && i + 1 < args.length) {
        options.push({ name, arg: a, value: args[++i] });
      } else {
        options.push({ name, arg: a, value: undefined });
        void lo;
      }
      continue;
    }
    // Short options, possibly bundled: -rf, -n19, -i.bak, -xvf FILE
    const letters = v.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const c = letters[j];
      if (sv.includes(c) || so.includes(c)) {
        const rest = letters.slice(j + 1);
        if (rest.length > 0) {
          const start = a.span.end - rest.length;
          options.push({ name: c, arg: a, value: shapedArg({ value: rest, text: rest, span: { start, end: a.span.end }, code: { text: rest, base: start } }) });
        } else if (sv.includes(c) && i + 1 < args.length) {
          options.push({ name: c, arg: a, value: args[++i] });
        } else {
          options.push({ name: c, arg: a, value: undefined });
        }
        break;
      }
      options.push({ name: c, arg: a, value: undefined });
    }
  }
  return { options, operands, restIndex, doubleDash };
}

const stopping = new WeakMap<OptionSpec, OptionSpec>();

/** `{ ...spec, stopAtOperand: true }`, made once per spec (the wrappers' specs are constants). */
export function stopAtOperand(spec: OptionSpec): OptionSpec {
  let s = stopping.get(spec);
  if (!s) stopping.set(spec, (s = { ...spec, stopAtOperand: true }));
  return s;
}

export function has(p: ParsedArgs, ...names: string[]): boolean {
  return p.options.some((o) => names.includes(o.name));
}

export function valuesOf(p: ParsedArgs, ...names: string[]): Arg[] {
  return p.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value!);
}
