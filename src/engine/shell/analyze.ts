// Shell analysis entry point. FIRST VERSION: treats the whole line as one command.
// To be replaced by the unbash-based walker (issue: shell-aware command analysis).
import type { CommandAnalysis, ShellContext } from "./types";

export function analyzeCommand(command: string, _ctx: ShellContext): CommandAnalysis {
  return {
    commands: [{ text: command, span: { start: 0, end: command.length } }],
    effects: [],
    uncertain: [],
    parseErrors: [],
  };
}
