// `cmd /c …` inside PowerShell: cmd's own built-ins that touch files (del, rd, type, copy, move,
// robocopy /MIR) as a table; anything else is a program for the bash analysis.
import type { Access, Span } from "../types";
import { programName, shellQuote } from "./to-bash";
import type { PsHost, Scope, Value } from "./walk-types";

interface CmdBuiltin {
  /** How the operands are touched; copy/move: all but the last are sources, the last is written. */
  access: Access | "copy" | "move";
  /** The switch that makes it recursive (`/s`). */
  recursive?: string;
  bash: string;
}

const BUILTINS: Record<string, CmdBuiltin> = {
  del: { access: "delete", recursive: "/s", bash: "rm -f" },
  erase: { access: "delete", recursive: "/s", bash: "rm -f" },
  rd: { access: "delete", recursive: "/s", bash: "rm" },
  rmdir: { access: "delete", recursive: "/s", bash: "rm" },
  type: { access: "read", bash: "cat" },
  copy: { access: "copy", bash: "cp" },
  xcopy: { access: "copy", recursive: "/s", bash: "cp" },
  move: { access: "move", bash: "mv" },
};

export function runCmd(w: PsHost, values: Value[], span: Span, scope: Scope, depth: number): void {
  const at = values.findIndex((v) => /^\/[ck]$/i.test(v.text ?? ""));
  if (at < 0) return;
  const rest = values.slice(at + 1);
  if (rest.some((v) => v.text === undefined)) return void w.sink.uncertainty("cmd is given a command only known at run time", span);
  const line = rest.map((v) => v.text).join(" ");
  if (depth > 12) return;
  for (const part of line.split(/\s*(?:&&|\|\||&|\|)\s*/)) {
    const words = [...part.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
    if (words.length === 0) continue;
    builtin(w, words, span, scope);
  }
}

function builtin(w: PsHost, words: string[], span: Span, scope: Scope): void {
  const name = programName(words[0]).toLowerCase();
  const spec = BUILTINS[name];
  const args = words.slice(1);
  if (name === "robocopy") {
    // robocopy SRC DST [/MIR | /PURGE]: mirroring deletes what DST has and SRC lacks.
    const [src, dst] = args;
    const mirror = args.some((a) => /^\/(mir|purge)$/i.test(a));
    if (src) for (const p of w.paths(src, scope)) w.sink.effect(p, "read", true, span, "robocopy");
    if (dst) for (const p of w.paths(dst, scope)) w.sink.effect(p, mirror ? "delete" : "write", true, span, "robocopy");
    w.sink.command({ text: words.join(" "), variants: mirror && dst ? [`rm -r -f ${dst}`] : undefined, span });
    return;
  }
  if (!spec) {
    w.bash(words.map(shellQuote).join(" "), span, scope);
    return;
  }
  const operands = args.filter((a) => !a.startsWith("/"));
  const recursive = !!spec.recursive && args.some((a) => a.toLowerCase() === spec.recursive);
  const touch = (p: string, access: Access, rec: boolean) => {
    for (const abs of w.paths(p, scope)) w.sink.effect(abs, access, rec, span, `cmd ${name}`);
  };
  if (spec.access === "copy" || spec.access === "move") {
    const dst = operands.length > 1 ? operands[operands.length - 1] : ".";
    for (const src of operands.slice(0, Math.max(1, operands.length - 1))) touch(src, spec.access === "move" ? "delete" : "read", recursive || spec.access === "move");
    touch(dst, "write", recursive);
  } else for (const p of operands) touch(p, spec.access, recursive);
  const flags = recursive ? " -r" : "";
  w.sink.command({ text: words.join(" "), variants: [`${spec.bash}${flags} ${operands.join(" ")}`.trim()], span });
}
