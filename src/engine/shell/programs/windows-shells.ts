// PowerShell and cmd started from a Bash tool (issue 36, family 9): `pwsh -c 'Remove-Item -Recurse
// ~'`, `powershell -Command …`, `cmd /c rd /s /q .git`. Their code is read by the PowerShell
// analysis (src/engine/powershell/, which reads `cmd /c` too) and what it finds is this command's.
// The analysis is handed in by the engine (setWindowsShellAnalysis) so the shell walker does not
// import the PowerShell reader that imports it. robocopy's mirror deletes what its source lacks.
import type { Handler, Invocation, Runner } from "../runner";
import type { CommandAnalysis, ShellContext } from "../types";
import { known, type Arg } from "../words";

type Analyse = (command: string, ctx: ShellContext) => CommandAnalysis;
let analyse: Analyse | undefined;

/** Set once by the engine (decide.ts): the PowerShell analysis. */
export function setWindowsShellAnalysis(f: Analyse): void {
  analyse = f;
}

const CODE_OPTION = /^-(c|command|cmd|co|com|comm|comma|comman|e|ec|encodedcommand|enc|encoded|encodedcommand)$/i;

/** Runs PowerShell text through its analysis; its findings land on this invocation. */
function merge(inv: Invocation, r: Runner, text: string): void {
  if (!analyse || inv.scope.cwd === undefined) return;
  const a = analyse(text, { cwd: inv.scope.cwd, home: inv.scope.home });
  // A cmd built-in's bash equivalent (`rd /s` → `rm -r`) is a command of its own here, so the rules
  // anchored on that program judge it.
  for (const c of a.commands) {
    r.sink.command({ text: c.text, ...(c.variants && { variants: c.variants }), span: inv.span });
    for (const v of c.variants ?? []) if (/^(rm|cp|mv|cat)\b/.test(v)) r.sink.command({ text: v, span: inv.span });
  }
  for (const e of a.effects) r.sink.effect(e.path, e.access, e.recursive, inv.span, e.via, e.only ? { only: e.only, ...(e.reformat && { reformat: true }) } : undefined);
  for (const e of a.remote) r.sink.remoteEffect({ ...e, span: inv.span });
  // What the PowerShell reader cannot know (a variable's value) is not asked about from here:
  // the effects it found are judged; an unknown expression alone is not a reason to stop a Bash call.
}

const quote = (a: Arg) => (known(a) ? (/[\s'"]/.test(a.value) ? `'${a.value.replace(/'/g, "''")}'` : a.value) : a.text);

const pwsh: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => a.text) });
  // `pwsh -c CODE`, `-EncodedCommand B64`, or a script's words: the PowerShell reader takes the whole line.
  if (inv.args.some((a) => CODE_OPTION.test(a.value ?? "") || (a.value ?? "").toLowerCase() === "-file")) merge(inv, r, [inv.name, ...inv.args.map(quote)].join(" "));
};

const cmd: Handler = (inv, r) => {
  r.emit(inv, { head: [inv.name], args: inv.args.map((a) => a.text) });
  // cmd splits its command line itself: the words as cmd sees them, unquoted (`cmd //c 'rd /s /q src'`).
  if (inv.args.some((a) => /^\/+[ck]$/i.test(a.value ?? ""))) merge(inv, r, ["cmd", ...inv.args.map((a) => (known(a) ? a.value.replace(/^\/\/([ck])$/i, "/$1") : a.text))].join(" "));
};

/** `robocopy SRC DST /MIR` (or `/PURGE`): files and folders in DST that SRC lacks are deleted. */
const robocopy: Handler = (inv, r) => {
  r.emit(inv, { head: ["robocopy"], args: inv.args.map((a) => a.text) });
  const operands = inv.args.filter((a) => !(a.value ?? "").startsWith("/"));
  if (operands[0]) r.path(inv, operands[0], "read", true, "robocopy");
  const mirror = inv.args.some((a) => /^\/(mir|purge)$/i.test(a.value ?? ""));
  if (operands[1]) r.path(inv, operands[1], mirror ? "delete" : "write", true, "robocopy /MIR");
  // Shown as the recursive delete it amounts to in DST, so the rm rules judge it.
  if (mirror && operands[1]) r.emitText(`rm -r ${quote(operands[1])}`, inv.span);
};

export function windowsShellHandlers(): Record<string, Handler> {
  return { pwsh, powershell: pwsh, "powershell.exe": pwsh, cmd, "cmd.exe": cmd, robocopy };
}
