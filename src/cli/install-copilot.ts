// damage-control install|uninstall copilot [--cwd D] [--repo] [--ask-timeout S]: guard VS Code's
// own agent (and Copilot CLI) with the command hook. See src/install/copilot.ts.
import * as path from "node:path";
import { installCopilot, uninstallCopilot } from "../install/copilot";
import { installLauncher } from "../install/launcher";
import { args, CliError, EXIT } from "./io";

export const INSTALL_COPILOT_HELP = `       damage-control install copilot [--repo] [--cwd DIR] [--ask-timeout SECONDS]
       damage-control uninstall copilot [--repo] [--cwd DIR]

install copilot writes the command hook of VS Code's agent (and Copilot CLI) into
                ~/.copilot/hooks/damage-control.json, and the launcher it runs into the state
                folder (bin/damage-control-hook + lib/cli.js). --repo writes DIR/.github/hooks/
                damage-control.json instead: no machine path, no secret; a teammate without
                Damage Control gets exit 127 from it, which VS Code treats as a failed hook (a
                warning, the agent goes on). The hook's timeout is the ask timeout + 15 s.`;

export function runInstallCopilot(argv: string[], uninstall: boolean): number {
  const { values } = args(argv, { cwd: { type: "string" }, repo: { type: "boolean" }, "ask-timeout": { type: "string" } }, true);
  const folder = path.resolve(values.cwd ?? process.cwd());
  const scope = values.repo ? "repo" : "user";
  const askTimeoutSeconds = values["ask-timeout"] === undefined ? 30 : Number(values["ask-timeout"]);
  if (!Number.isFinite(askTimeoutSeconds) || askTimeoutSeconds <= 0) throw new CliError(`--ask-timeout must be a positive number, got ${values["ask-timeout"]}`);
  if (uninstall) {
    const r = uninstallCopilot({ scope, folder });
    process.stdout.write(r.removed ? `removed ${r.file}\n` : `no Damage Control hook file at ${r.file}\n`);
    return EXIT.ok;
  }
  // The launcher the hook runs: a copy of this very CLI in the state folder (stable path).
  const l = installLauncher({ distDir: path.dirname(path.resolve(process.argv[1] ?? ".")), nodePath: process.execPath, askTimeoutSeconds });
  const r = installCopilot({ scope, folder, askTimeoutSeconds });
  process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: VS Code's agent (and Copilot CLI) run ${l.sh} before every tool call\n`);
  if (scope === "repo") process.stdout.write(`Teammates need Damage Control (VS Code extension or \`damage-control install copilot\`) for it to guard them; without it the hook is skipped with a warning.\n`);
  return EXIT.ok;
}
