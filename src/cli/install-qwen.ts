// damage-control install|uninstall qwen: the launcher as a user-level PreToolUse hook of Qwen Code.
import * as path from "node:path";
import { lookupEndpoint } from "../core/registry";
import { installLauncher } from "../install/launcher";
import { installQwen, qwenHookCommand, qwenSettingsFile, uninstallQwen } from "../install/qwen";
import { CliError, EXIT } from "./io";

export function runQwenInstall(folder: string, uninstall: boolean): number {
  const file = qwenSettingsFile();
  if (uninstall) {
    const r = uninstallQwen(file);
    process.stdout.write(r.removed ? `removed ${r.removed} hook(s) from ${r.file}\n` : `no Damage Control hooks in ${r.file}\n`);
    return EXIT.ok;
  }
  // The launcher, not an HTTP hook: Qwen runs the call when an HTTP hook's endpoint is down, and
  // the launcher decides locally then (and refuses with exit 2 when even that fails).
  const launcher = installLauncher({ distDir: path.dirname(path.resolve(process.argv[1] ?? ".")), nodePath: process.execPath });
  let r;
  try {
    r = installQwen(file, qwenHookCommand(launcher.sh));
  } catch (e) {
    throw new CliError((e as Error).message, EXIT.io);
  }
  process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: PreToolUse command hook for every tool; user-level, so it guards ${folder} and every other folder\n`);
  if (!lookupEndpoint(folder)) process.stdout.write(`No endpoint runs for ${folder} yet: open it in VS Code or run \`damage-control serve --cwd ${folder}\` (until then the hook decides locally).\n`);
  return EXIT.ok;
}
