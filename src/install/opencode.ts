// `damage-control install opencode` / `uninstall opencode`: our plugin file in OpenCode's user
// plugins folder ($XDG_CONFIG_HOME or ~/.config)/opencode/plugins/, or with --cwd D the project's
// D/.opencode/plugins/. The file is ours alone: install writes it, uninstall removes it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeIfChanged } from "./json-file";
import { OPENCODE_PLUGIN_MARK, opencodePlugin } from "./opencode-plugin";

export const OPENCODE_PLUGIN_FILE = "damage-control.js";

export function opencodePluginFile(scope: { folder?: string }, env: NodeJS.ProcessEnv = process.env): string {
  if (scope.folder) return path.join(scope.folder, ".opencode", "plugins", OPENCODE_PLUGIN_FILE);
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config");
  return path.join(config, "opencode", "plugins", OPENCODE_PLUGIN_FILE);
}

export function installOpenCode(file: string, launcher: string, limitSeconds: number): { file: string; changed: boolean } {
  return { file, changed: writeIfChanged(file, opencodePlugin({ launcher, limitSeconds })) };
}

function isOurPlugin(file: string): boolean {
  try {
    return fs.readFileSync(file, "utf8").includes(OPENCODE_PLUGIN_MARK);
  } catch {
    return false;
  }
}

export function uninstallOpenCode(file: string): { file: string; removed: boolean } {
  if (!isOurPlugin(file)) return { file, removed: false };
  fs.rmSync(file);
  return { file, removed: true };
}

export type OpenCodeStatus = { state: "not-installed" | "guarding"; file: string } | { state: "not-guarding"; file: string; why: string };

/** Our plugin present with its launcher, absent, or present but pointing at a launcher that is gone. */
export function opencodeStatus(file: string): OpenCodeStatus {
  if (!isOurPlugin(file)) return { state: "not-installed", file };
  const launcher = /^const LAUNCHER = (".*");$/m.exec(fs.readFileSync(file, "utf8"))?.[1];
  const sh = launcher ? (JSON.parse(launcher) as string) : undefined;
  if (!sh || !fs.existsSync(sh)) return { state: "not-guarding", file, why: `its launcher ${sh ?? "(none)"} is missing, so every call is refused (reinstall: damage-control install opencode)` };
  return { state: "guarding", file };
}
