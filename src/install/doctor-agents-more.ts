// doctor's checks for Qwen Code and OpenCode. Qwen Code: our user-level hook absent (ok), in force (ok), or present in a
// form Qwen would not run or whose launcher is gone (FAIL).
import * as fs from "node:fs";
import { userStateDir } from "../core/state-dir";
import { launcherPaths } from "./launcher";
import { opencodePluginFile, opencodeStatus } from "./opencode";
import { qwenSettingsFile, qwenStatus } from "./qwen";
import type { Check } from "./check";

const QWEN = "Qwen Code";
const OPENCODE = "OpenCode";

export function qwenCheck(env: NodeJS.ProcessEnv): Check {
  const sh = launcherPaths(userStateDir(env)).sh;
  const s = qwenStatus(qwenSettingsFile(env), (command) => command.includes(sh) && fs.existsSync(sh));
  if (s.state === "not-installed") return { id: "qwen", status: "ok", message: "Qwen Code: not installed (only needed for Qwen Code: damage-control install qwen)", agent: { label: QWEN, state: s.state } };
  if (s.state === "guarding") return { id: "qwen", status: "ok", message: `Qwen Code: PreToolUse hook in ${s.file}`, agent: { label: QWEN, state: s.state } };
  const why = "why" in s ? s.why : "";
  return { id: "qwen", status: "fail", message: `Qwen Code: our hook is in ${s.file} but Qwen would not run it: ${why}`, agent: { label: QWEN, state: "not-guarding" } };
}

/** OpenCode: our plugin, user-level or in the folder's .opencode/plugins/. */
export function opencodeCheck(folder: string, env: NodeJS.ProcessEnv): Check {
  const all = [opencodePluginFile({ folder }, env), opencodePluginFile({}, env)].map((f) => opencodeStatus(f));
  const broken = all.find((s) => s.state === "not-guarding");
  if (broken && "why" in broken) return { id: "opencode", status: "fail", message: `OpenCode: our plugin is at ${broken.file} but ${broken.why}`, agent: { label: OPENCODE, state: "not-guarding" } };
  const on = all.find((s) => s.state === "guarding");
  if (on) return { id: "opencode", status: "ok", message: `OpenCode: plugin at ${on.file}`, agent: { label: OPENCODE, state: "guarding" } };
  return { id: "opencode", status: "ok", message: "OpenCode: not installed (only needed for OpenCode: damage-control install opencode)", agent: { label: OPENCODE, state: "not-installed" } };
}
