// damage-control install|uninstall cline [--cwd DIR]: the PreToolUse and PostToolUse hook files that run the launcher.
import * as path from "node:path";
import { lookupEndpoint } from "../core/registry";
import { CLINE_HUB_ADVICE, CLINE_POST_HOOK_FILE, ClineHookConflict, clineHooksDir, installCline, otherClineHooks, uninstallCline } from "../install/cline";
import { installLauncher } from "../install/launcher";
import { CliError, EXIT } from "./io";

export function runClineInstall(cwd: string | undefined, uninstall: boolean): number {
  const dir = clineHooksDir({ folder: cwd && path.resolve(cwd) });
  if (uninstall) {
    const r = uninstallCline(dir);
    if (r.postRemoved) process.stdout.write(`removed ${path.join(dir, CLINE_POST_HOOK_FILE)}\n`);
    process.stdout.write(r.removed ? `removed ${r.file}\n${CLINE_HUB_ADVICE}.\n` : `no Damage Control hook at ${r.file}\n`);
    return EXIT.ok;
  }
  const launcher = installLauncher({ distDir: path.dirname(path.resolve(process.argv[1] ?? ".")), nodePath: process.execPath });
  let r;
  try {
    r = installCline(dir, launcher.sh);
  } catch (e) {
    if (e instanceof ClineHookConflict) throw new CliError(e.message, EXIT.io);
    throw e;
  }
  process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: runs the launcher for every tool call${cwd ? "" : " in every folder"}\n`);
  if ("kept" in r.post) process.stderr.write(`warning: ${r.post.file} is not Damage Control's: kept, and ours not written (what the sandbox's kernel refuses will not show in the feed)\n`);
  else process.stdout.write(`${r.post.changed ? "wrote" : "unchanged"} ${r.post.file}: shows what the sandbox's kernel refused in the feed (never refuses)\n`);
  process.stdout.write(`${CLINE_HUB_ADVICE}.\n`);
  const folder = path.resolve(cwd ?? process.cwd());
  const others = otherClineHooks(folder);
  if (others.length > 0) process.stderr.write(`warning: Cline also runs ${others.join(", ")}; if one answers overrideInput, Cline keeps the last one, which can undo our replacement of a refused command\n`);
  if (!lookupEndpoint(folder)) process.stdout.write(`No endpoint runs for ${folder} yet: open it in VS Code or run \`damage-control serve --cwd ${folder}\` (until then the hook decides locally).\n`);
  return EXIT.ok;
}
