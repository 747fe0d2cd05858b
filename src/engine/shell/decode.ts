// Decoders the analysis can run statically: what `base64 -d`, `xxd -r`, `rev`, `printf` and
// `echo` would print for a known input. Used when such output is run as code (`… | sh`,
// `$(…)`, `<(…)`), so a payload hidden in an encoding is judged as the command it decodes to.
// Pure and bounded: inputs above MAX_DECODE characters are not decoded.

export const MAX_DECODE = 64 * 1024;

export function base64Decode(text: string): string | undefined {
  const s = text.replace(/\s+/g, "");
  if (s.length > MAX_DECODE || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(s)) return undefined;
  const out = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(out) ? undefined : out;
}

/** `xxd -r -p`: plain hex digits (whitespace ignored). */
export function hexDecode(text: string): string | undefined {
  const s = text.replace(/\s+/g, "");
  if (s.length > MAX_DECODE || s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return undefined;
  const out = Buffer.from(s, "hex").toString("utf8");
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(out) ? undefined : out;
}

/** `rev`: each line reversed. */
export function reverseLines(text: string): string {
  return text
    .split("\n")
    .map((l) => [...l].reverse().join(""))
    .join("\n");
}

/** Backslash escapes of printf's format and of `echo -e`: \n \t \\ \xHH \0NNN \NNN. */
export function unescapeC(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|0?[0-7]{1,3}|[ntrabfve\\'"])/g, (_, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", e: "\x1b", "\\": "\\", "'": "'", '"': '"' } as Record<string, string>)[e] ?? e;
  });
}

/**
 * printf FORMAT ARGS…: the format repeated until the arguments are used up, `%s`/`%b`/`%d`
 * substituted, escapes of the format (and of %b arguments) applied. Undefined for a directive
 * it does not know (a width, `%q`): the output is then not known.
 */
export function printfOutput(format: string, args: readonly string[]): string | undefined {
  if (format.length > MAX_DECODE) return undefined;
  const directives = format.match(/%[^%]|%%/g) ?? [];
  if (directives.some((d) => d !== "%%" && !/^%[sbdc]$/.test(d))) return undefined;
  const used = directives.filter((d) => d !== "%%").length;
  let out = "";
  let i = 0;
  do {
    out += unescapeC(format).replace(/%([sbdc%])/g, (_, c: string) => {
      if (c === "%") return "%";
      const a = args[i++] ?? "";
      return c === "b" ? unescapeC(a) : a;
    });
  } while (used > 0 && i < args.length && out.length < MAX_DECODE);
  return out;
}
