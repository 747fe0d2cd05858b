// damage-control endpoint --cwd DIR: where the endpoint guarding DIR listens, and its token.
import * as path from "node:path";
import { lookupEndpoint } from "../core/registry";
import { readToken } from "../core/token";
import { args, CliError, EXIT } from "./io";

export const ENDPOINT_HELP = `Usage: damage-control endpoint [--cwd DIR]

Prints {"url": "...", "token": "..."} as JSON for the running endpoint that guards DIR
(default: current directory): a VS Code window with that folder open, or \`damage-control serve\`.
Exit codes: 0 found, 4 no running endpoint guards DIR.`;

export function runEndpoint(argv: string[]): number {
  const { values } = args(argv, { cwd: { type: "string" } });
  const dir = path.resolve(values.cwd ?? process.cwd());
  const reg = lookupEndpoint(dir);
  const token = readToken();
  if (!reg || !token) throw new CliError(`no running Damage Control endpoint guards ${dir} (open it in VS Code, or run: damage-control serve --cwd ${dir})`, EXIT.unavailable);
  process.stdout.write(JSON.stringify({ url: reg.url, token, folder: reg.folder }) + "\n");
  return EXIT.ok;
}
