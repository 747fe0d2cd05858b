// doctor's check for Qwen Code: our user-level hook absent (ok), in force (ok), or present in a
// form Qwen would not run or whose launcher is gone (FAIL).
import * as fs from "node:fs";
import { userStateDir } from "../core/state-dir";
import { launcherPaths } from "./launcher";
import { qwenSettingsFile, qwenStatus } from "./qwen";
import type { Check } from "./doctor";

export function qwenCheck(env: NodeJS.ProcessEnv): Check {
  const sh = launcherPaths(userStateDir(env)).sh;
  const s = qwenStatus(qwenSettingsFile(env), (command) => command.includes(sh) && fs.existsSync(sh));
  if (s.state === "not-installed") return { id: "qwen", status: "ok", message: "Qwen Code: not installed (only needed for Qwen Code: damage-control install qwen)" };
  if (s.state === "guarding") return { id: "qwen", status: "ok", message: `Qwen Code: PreToolUse hook in ${s.file}` };
  const why = "why" in s ? s.why : "";
  return { id: "qwen", status: "fail", message: `Qwen Code: our hook is in ${s.file} but Qwen would not run it: ${why}` };
}
