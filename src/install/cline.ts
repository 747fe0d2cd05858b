// `damage-control install cline` / `uninstall cline`: the executables `PreToolUse` and
// `PostToolUse` in Cline's user hooks folder (($CLINE_DIR or ~/.cline)/hooks/), or with --cwd D in
// the project's D/.clinerules/hooks/. Cline runs every file there named PreToolUse (any of its
// script extensions) for every tool call, and PostToolUse after it ran. The files are ours alone:
// install writes them and refuses to replace a PreToolUse that is not ours (a PostToolUse that is
// not ours is kept, and ours not written: it only feeds the panel); uninstall removes exactly
// ours; other hook files stay.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeIfChanged } from "./json-file";
import { shQuote } from "./launcher";

export const CLINE_HOOK_FILE = "PreToolUse";
/** After a call ran (measured 3.0.65: the command as it ran and its output): the kernel's refusals in the feed. */
export const CLINE_POST_HOOK_FILE = "PostToolUse";
export const CLINE_HOOK_MARK = "Damage Control hook for Cline";

/** What Cline reads when our hook cannot run the guard: a refusal (anything else would RUN the call). */
const UNREADABLE =
  '{"cancel":true,"errorMessage":"Blocked by Damage Control: its Cline hook could not run the guard (reinstall: damage-control install cline). Do not work around this; report it to the user."}';

/**
 * Cline lists its hook files when a session starts (3.0.65's hook runner): a session already
 * running (the TUI, a task in the hub daemon) goes on without an installed hook, or with a removed one.
 */
export const CLINE_HUB_ADVICE = "Cline reads its hooks when a session starts: restart running Cline sessions, and stop its hub daemon once (`cline hub stop`; the next cline run starts a fresh one)";

export function clineHooksDir(scope: { folder?: string }, env: NodeJS.ProcessEnv = process.env): string {
  if (scope.folder) return path.join(scope.folder, ".clinerules", "hooks");
  return path.join(env.CLINE_DIR?.trim() || path.join(env.HOME || os.homedir(), ".cline"), "hooks");
}

/** The names Cline runs as a PreToolUse hook: PreToolUse (any case) with no extension or one of these. */
const HOOK_EXTENSIONS = new Set(["", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"]);

/**
 * The PreToolUse hooks Cline runs for `folder` other than ours, in every folder it searches
 * (3.0.65). Cline keeps the LAST overrideInput of all its hooks: one of these that answers with
 * its own could undo our replacement of a refused command.
 */
export function otherClineHooks(folder: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME || os.homedir();
  const dirs = [path.join(home, "Documents", "Cline", "Hooks"), clineHooksDir({}, env), clineHooksDir({ folder }), path.join(folder, ".cline", "hooks")];
  const found: string[] = [];
  for (const dir of new Set(dirs)) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      const ext = path.extname(n).toLowerCase();
      const file = path.join(dir, n);
      if (HOOK_EXTENSIONS.has(ext) && path.basename(n, path.extname(n)).toLowerCase() === "pretooluse" && !isOurs(file)) found.push(file);
    }
  }
  return found;
}

/**
 * The hook file: runs the launcher for agent `cline` and passes on its answer when it is a JSON
 * object; anything else (launcher missing, crashed, silent) becomes a refusal here, since Cline
 * runs the call on an answer it cannot read and ignores exit codes.
 */
export function clineHookScript(launcher: string): string {
  return `#!/bin/sh
# ${CLINE_HOOK_MARK} (written by \`damage-control install cline\`; do not edit).
launcher=${shQuote(launcher)}
out=$(/bin/sh "$launcher" cline)
case $out in '{'*'}') printf '%s\\n' "$out"; exit 0 ;; esac
printf '%s\\n' '${UNREADABLE}'
exit 0
`;
}

/**
 * The PostToolUse hook file: hands the payload to the launcher for agent `cline` (the guard reads
 * a sandboxed call's output for the kernel's refusals) and answers `{}` whatever the launcher
 * said. Cline 3.0.65 honours `cancel` there too (it ends the whole run) and the launcher's last
 * resort is a `cancel`: after the call ran nothing is refused, so that answer never reaches Cline.
 */
export function clinePostHookScript(launcher: string): string {
  return `#!/bin/sh
# ${CLINE_HOOK_MARK}, after each tool call (written by \`damage-control install cline\`; do not edit).
# The answer is always {} (no opinion): the call already ran.
launcher=${shQuote(launcher)}
/bin/sh "$launcher" cline >/dev/null 2>&1
printf '%s\\n' '{}'
exit 0
`;
}

function isOurs(file: string): boolean {
  try {
    return fs.readFileSync(file, "utf8").includes(CLINE_HOOK_MARK);
  } catch {
    return false;
  }
}

export class ClineHookConflict extends Error {}

function writeHook(file: string, script: string): boolean {
  const changed = writeIfChanged(file, script, 0o755);
  // writeIfChanged keeps an unchanged file as it is: make sure it can run.
  fs.chmodSync(file, 0o755);
  return changed;
}

/** Our PostToolUse hook: written, or not (`kept`: the user's own file of that name stays). */
export type ClinePostHook = { file: string; changed: boolean } | { file: string; kept: true };

export function installCline(dir: string, launcher: string): { file: string; changed: boolean; post: ClinePostHook } {
  const file = path.join(dir, CLINE_HOOK_FILE);
  if (fs.existsSync(file) && !isOurs(file)) {
    throw new ClineHookConflict(`${file} is a PreToolUse hook that is not Damage Control's: not replaced. Cline also runs PreToolUse.sh (or .py, .js…) from the same folder, so rename yours and install again`);
  }
  const changed = writeHook(file, clineHookScript(launcher));
  const postFile = path.join(dir, CLINE_POST_HOOK_FILE);
  const post: ClinePostHook = fs.existsSync(postFile) && !isOurs(postFile) ? { file: postFile, kept: true } : { file: postFile, changed: writeHook(postFile, clinePostHookScript(launcher)) };
  return { file, changed, post };
}

export function uninstallCline(dir: string): { file: string; removed: boolean; postRemoved: boolean } {
  const file = path.join(dir, CLINE_HOOK_FILE);
  const postFile = path.join(dir, CLINE_POST_HOOK_FILE);
  const postRemoved = isOurs(postFile);
  if (postRemoved) fs.rmSync(postFile);
  if (!isOurs(file)) return { file, removed: false, postRemoved };
  fs.rmSync(file);
  return { file, removed: true, postRemoved };
}

export type ClineStatus = { state: "not-installed" | "guarding"; file: string } | { state: "not-guarding"; file: string; why: string };

/** Our hook present with its launcher, absent, or present but unable to run (every call refused). */
export function clineStatus(dir: string): ClineStatus {
  const file = path.join(dir, CLINE_HOOK_FILE);
  if (!isOurs(file)) return { state: "not-installed", file };
  const launcher = /^launcher=(.*)$/m.exec(fs.readFileSync(file, "utf8"))?.[1];
  const sh = launcher?.startsWith("'") && launcher.endsWith("'") ? launcher.slice(1, -1).replace(/'\\''/g, "'") : undefined;
  if (!sh || !fs.existsSync(sh)) return { state: "not-guarding", file, why: `its launcher ${sh ?? "(none)"} is missing, so Cline stops every task at its first tool call (reinstall: damage-control install cline)` };
  return { state: "guarding", file };
}
