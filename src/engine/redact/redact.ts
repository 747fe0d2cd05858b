// Secrets out of what the guard records and shows: the ledger line, the feed, the OTLP export and
// snapshot listings carry a command with every credential replaced by MARK, still readable as
// the command it was. Pure and table-driven (table.ts); works on any text (command, path, reason).
import { MARK, NOT_A_VALUE, NOT_SECRET_VARIABLES, PROGRAM_OPTIONS, SECRET_HEADERS, SECRET_OPTION_WORD, SECRET_VARIABLE, TOKEN_SHAPES } from "./table";

export { MARK } from "./table";

/** A shell word's value: quoted (either quote) or bare up to a separator. */
const VALUE = String.raw`(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s;&|()<>'"]+)`;
const HEADER = new RegExp(String.raw`\b(${SECRET_HEADERS.map(escape).join("|")})(\s*:\s*)(?:(bearer|basic|token|digest|bot|negotiate|ntlm|aws4-hmac-sha256)\s+)?([^\s'"\\]+(?:;\s*[^\s'"\\]+)*)`, "gi");
/** NAME=value after a start, a separator, `export`/`env`, `--env`/`-e`, or inside a connection string. */
const ASSIGNMENT = new RegExp(String.raw`(^|[\s;&|(\x60'"?,])([A-Za-z_][A-Za-z0-9_.-]*)=(${VALUE})`, "g");
const JSON_PAIR = /("([A-Za-z_][A-Za-z0-9_.-]*)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const LONG_OPTION = new RegExp(String.raw`(^|\s)(--?[A-Za-z][A-Za-z0-9_-]*)(=|\s+)(${VALUE})`, "g");
/** scheme://user:password@ and scheme://TOKEN@ (a long user part is a token, not a name). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:'"]*):([^\s/@'"]+)@/gi;
const URL_TOKEN_USER = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:'"]{20,})@/gi;

/** `text` with every secret the tables know replaced by MARK. */
export function redact(text: string): string {
  if (!text) return text;
  let out = text;
  for (const { re } of TOKEN_SHAPES) out = out.replace(re, MARK);
  out = out.replace(URL_PASSWORD, (_m, scheme: string, user: string) => `${scheme}${user}:${MARK}@`);
  out = out.replace(URL_TOKEN_USER, (_m, scheme: string) => `${scheme}${MARK}@`);
  out = out.replace(HEADER, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ? scheme + " " : ""}${MARK}`);
  out = out.replace(JSON_PAIR, (m, head: string, name: string) => (secretVariable(name) ? `${head}"${MARK}"` : m));
  out = out.replace(ASSIGNMENT, (m, start: string, name: string, value: string) => (secretVariable(name) && !isMark(value) ? `${start}${name}=${quoteLike(value)}` : m));
  out = out.replace(LONG_OPTION, (m, start: string, option: string, sep: string, value: string) => (secretOption(option) && !value.startsWith("-") && !isMark(value) ? `${start}${option}${sep}${quoteLike(value)}` : m));
  return programOptions(out);
}

/** Each field of a record that is text, redacted (the rest as it was). */
export function redactFields<T extends object>(record: T, fields: readonly (keyof T)[]): T {
  const out = { ...record };
  for (const f of fields) if (typeof out[f] === "string") (out as Record<keyof T, unknown>)[f] = redact(out[f] as string);
  return out;
}

function secretVariable(name: string): boolean {
  return SECRET_VARIABLE.test(name) && !NOT_SECRET_VARIABLES.includes(name);
}

function secretOption(option: string): boolean {
  if (!option.startsWith("--") || NOT_A_VALUE.test(option)) return false;
  return option.slice(2).split(/[-_]/).some((w) => SECRET_OPTION_WORD.test(w));
}

/** PROGRAM_OPTIONS compiled once: which segment names the program, and each option's value. */
const PROGRAM_RULES = PROGRAM_OPTIONS.map((row) => ({
  names: new RegExp(String.raw`(^|[\s/])(${row.programs.map(escape).join("|")})(\s|$)`),
  options: row.options.map((option) => ({ re: optionValueRe(escape(option), row.form), form: row.form })),
}));
/** Any program of the table: a text without one skips the per-segment work. */
const ANY_PROGRAM = new RegExp(String.raw`(^|[\s/])(${PROGRAM_OPTIONS.flatMap((r) => r.programs).map(escape).join("|")})(\s|$)`);

/** The password options of the programs that have them (PROGRAM_OPTIONS), one shell segment at a time. */
function programOptions(text: string): string {
  if (!ANY_PROGRAM.test(text)) return text;
  const parts = text.split(/(\|\||&&|[|;&\n])/);
  for (let i = 0; i < parts.length; i += 2) {
    for (const rule of PROGRAM_RULES) {
      if (!rule.names.test(parts[i])) continue;
      for (const o of rule.options) parts[i] = optionValue(parts[i], o.re, o.form);
    }
  }
  return parts.join("");
}

function optionValueRe(o: string, form: "attached" | "separate" | "user:password"): RegExp {
  if (form === "attached") return new RegExp(String.raw`(\s${o})(${VALUE})`, "g");
  if (form === "separate") return new RegExp(String.raw`(\s${o}\s+)(${VALUE})`, "g");
  return new RegExp(String.raw`(\s${o}(?:\s+|=)?)(['"]?)([^:\s'"]*):([^\s'"]+)\2`, "g");
}

function optionValue(segment: string, re: RegExp, form: "attached" | "separate" | "user:password"): string {
  if (form === "attached") return segment.replace(re, (m, head: string, v: string) => (isMark(v) ? m : `${head}${MARK}`));
  if (form === "separate") return segment.replace(re, (m, head: string, v: string) => (v.startsWith("-") || isMark(v) ? m : `${head}${MARK}`));
  return segment.replace(re, (m, head: string, q: string, user: string, pw: string) => (isMark(pw) ? m : `${head}${q}${user}:${MARK}${q}`));
}

/** The marker, in the quotes the value had: the command still reads as shell. */
function quoteLike(value: string): string {
  return value.startsWith("'") ? `'${MARK}'` : value.startsWith('"') ? `"${MARK}"` : MARK;
}

function isMark(value: string): boolean {
  return value.replace(/^['"]|['"]$/g, "") === MARK;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
}
