// doctor's checks for Qwen Code, OpenCode and Cline. Qwen Code: our user-level hook absent (ok), in force (ok), or present in a
// form Qwen would not run or whose launcher is gone (FAIL).
import * as fs from "node:fs";
import { userStateDir } from "../core/state-dir";
import { CLINE_HUB_ADVICE, clineHooksDir, clineStatus, otherClineHooks } from "./cline";
import { launcherPaths } from "./launcher";
import { opencodePluginFile, opencodeStatus } from "./opencode";
import { qwenSettingsFile, qwenStatus } from "./qwen";
import type { Check } from "./check";

const QWEN = "Qwen Code";
const OPENCODE = "OpenCode";
const CLINE = "Cline";

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

/** Cline: our PreToolUse hook file, user-level or in the folder's .clinerules/hooks/. */
export function clineCheck(folder: string, env: NodeJS.ProcessEnv): Check {
  const all = [clineHooksDir({ folder }, env), clineHooksDir({}, env)].map((d) => clineStatus(d));
  const broken = all.find((s) => s.state === "not-guarding");
  if (broken && "why" in broken) return { id: "cline", status: "fail", message: `Cline: our hook is at ${broken.file} but ${broken.why}`, agent: { label: CLINE, state: "not-guarding" } };
  const on = all.find((s) => s.state === "guarding");
  if (!on) return { id: "cline", status: "ok", message: "Cline: not installed (only needed for Cline: damage-control install cline)", agent: { label: CLINE, state: "not-installed" } };
  const others = otherClineHooks(folder, env);
  if (others.length > 0) {
    return { id: "cline", status: "warn", message: `Cline: PreToolUse hook at ${on.file}, and Cline also runs ${others.join(", ")}: an overrideInput from one of those can undo our replacement of a refused command (Cline keeps the last one)`, agent: { label: CLINE, state: "not-guarding" } };
  }
  return { id: "cline", status: "ok", message: `Cline: PreToolUse hook at ${on.file}. ${CLINE_HUB_ADVICE}.`, agent: { label: CLINE, state: "guarding" } };
}
