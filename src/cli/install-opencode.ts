// damage-control install|uninstall opencode [--cwd DIR]: the plugin that runs the launcher.
import * as path from "node:path";
import { lookupEndpoint } from "../core/registry";
import { installLauncher } from "../install/launcher";
import { installOpenCode, opencodePluginFile, uninstallOpenCode } from "../install/opencode";
import { EXIT } from "./io";

/** Seconds the plugin waits for the launcher: its curl stops at the ask timeout (30 s) + 10 s. */
const PLUGIN_LIMIT_S = 50;

export function runOpenCodeInstall(cwd: string | undefined, uninstall: boolean): number {
  const file = opencodePluginFile({ folder: cwd && path.resolve(cwd) });
  if (uninstall) {
    const r = uninstallOpenCode(file);
    process.stdout.write(r.removed ? `removed ${r.file}\n` : `no Damage Control plugin at ${r.file}\n`);
    return EXIT.ok;
  }
  const launcher = installLauncher({ distDir: path.dirname(path.resolve(process.argv[1] ?? ".")), nodePath: process.execPath });
  const r = installOpenCode(file, launcher.sh, PLUGIN_LIMIT_S);
  process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: tool.execute.before runs the launcher for every tool call${cwd ? "" : " in every folder"}\n`);
  const folder = path.resolve(cwd ?? process.cwd());
  if (!lookupEndpoint(folder)) process.stdout.write(`No endpoint runs for ${folder} yet: open it in VS Code or run \`damage-control serve --cwd ${folder}\` (until then the plugin decides locally).\n`);
  return EXIT.ok;
}
