// Shell analysis entry point: parses a bash command line with unbash and reports every command
// that will execute (normalized for the bash patterns), every path it touches, what cannot be
// known statically, and parse errors. Pure: no I/O. Bounded by limits.ts.
import { identityCode } from "./code";
import { MAX_INPUT_CHARS } from "./limits";
import type { CommandAnalysis, ShellContext } from "./types";
import { Walker } from "./walk";

export function analyzeCommand(command: string, ctx: ShellContext): CommandAnalysis {
  const walker = new Walker(ctx);
  if (command.length > MAX_INPUT_CHARS) {
    walker.sink.parseError(`the command is ${command.length} characters long, more than the ${MAX_INPUT_CHARS} analysed`, { start: 0, end: Math.min(command.length, 80) });
    return walker.sink.result();
  }
  walker.runCode(identityCode(command), walker.rootScope(), { kind: "none" }, 0, "the command");
  return walker.sink.result();
}
