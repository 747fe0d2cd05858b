// The shell command line an agent's command hook runs when it calls this very CLI
// (`node /path/to/cli.js hook AGENT`), quoted for the shell the agent runs it with.
import * as path from "node:path";

/** The command hook line for `agent`: this Node binary running this CLI's `hook AGENT`. */
export function selfHookCommand(agent: string): string {
  const cli = path.resolve(process.argv[1] ?? "damage-control");
  return `${shellQuote(process.execPath)} ${shellQuote(cli)} hook ${agent}`;
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
