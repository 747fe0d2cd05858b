// `damage-control install qwen` / `uninstall qwen`: our PreToolUse command hook in Qwen Code's
// USER settings, ~/.qwen/settings.json (project .qwen/settings.json hooks load only in a trusted
// folder, so a project install could be skipped without a word). Merged into what is there (other
// keys, other hooks untouched) and removed exactly (only entries whose hook is named ours; hook-groups.ts).
// The command is the launcher: every failure of it is an answer or exit 2, both refusals in Qwen.
import * as os from "node:os";
import * as path from "node:path";
import { shQuote } from "./launcher";
import { installGroup, ourGroups, ourHook, readSettings, uninstallGroups, type HookSlot } from "./hook-groups";

/** The `name` our hook entry carries: how uninstall and doctor recognise it. */
export const QWEN_HOOK_NAME = "damage-control";
/** Seconds Qwen waits for the hook. Qwen 0.24.4 RUNS the call when a command hook times out
 *  (measured, docs/agents-more.md), so this must outlast the launcher's own deadline for the
 *  longest ask the extension allows: damageControl.askTimeoutSeconds ≤ 600, curl's --max-time is
 *  ask + 10 s, then the local decision; + 15 s margin (copilot.ts's HOOK_TIMEOUT_MARGIN_SECONDS).
 *  Under 1000, or Qwen would read it as milliseconds. */
export const QWEN_HOOK_TIMEOUT_S = 600 + 10 + 15;
/** Every tool: shell, file tools, MCP tools. */
export const QWEN_MATCHER = "*";

export function qwenSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.HOME || os.homedir(), ".qwen", "settings.json");
}

/** The hook command: the launcher, and exit 2 (a refusal in Qwen) whenever it ends any other way
 *  than 0 or 2. Qwen 0.24.4 RUNS the call on any other exit code, and a launcher that is gone
 *  (state folder removed) exits 127 from the shell: measured, docs/agents-more.md. */
export function qwenHookCommand(launcherSh: string): string {
  return `${shQuote(launcherSh)} qwen || { rc=$?; [ "$rc" = 2 ] || echo "Blocked by Damage Control: its hook launcher failed (exit $rc; reinstall: damage-control install qwen). Do not work around this; report it to the user." >&2; exit 2; }`;
}

const SLOT: HookSlot = { event: "PreToolUse", name: QWEN_HOOK_NAME };

export function installQwen(file: string, command: string): { file: string; changed: boolean } {
  return installGroup(file, SLOT, { matcher: QWEN_MATCHER, hooks: [{ name: QWEN_HOOK_NAME, type: "command", command, timeout: QWEN_HOOK_TIMEOUT_S }] });
}

export function uninstallQwen(file: string): { file: string; removed: number } {
  return uninstallGroups(file, SLOT);
}

export type QwenStatus = { state: "not-installed" | "guarding"; file: string } | { state: "not-guarding"; file: string; why: string };

/** Ours present and in force, absent, or present in a form Qwen would not run. */
export function qwenStatus(file: string, launcherExists: (command: string) => boolean): QwenStatus {
  const { settings, error } = readSettings(file);
  if (error !== undefined) return { state: "not-guarding", file, why: `it cannot be read (${error}): Qwen Code runs no hook from it` };
  const groups = settings ? ourGroups(settings, SLOT) : [];
  if (!settings || groups.length === 0) return { state: "not-installed", file };
  if (settings.disableAllHooks === true) return { state: "not-guarding", file, why: "disableAllHooks is true: Qwen Code runs no hooks" };
  const g = groups[0];
  if (g.matcher !== QWEN_MATCHER) return { state: "not-guarding", file, why: `our hook's matcher was changed to ${JSON.stringify(g.matcher)}` };
  const hook = ourHook(g, SLOT);
  // The command's first word is the launcher (qwenHookCommand): name that, not the whole wrapper.
  if (typeof hook.command !== "string" || !launcherExists(hook.command)) return { state: "not-guarding", file, why: `its command ${typeof hook.command === "string" ? hook.command.split(" ")[0] : JSON.stringify(hook.command)} is missing (reinstall: damage-control install qwen)` };
  return { state: "guarding", file };
}
