// Where Damage Control keeps its per-user state: the token and the endpoint registry.
// Per-workspace state (audit ledger, last good rules) lives in <folder>/.damage-control/,
// which carries its own .gitignore so it never ends up in a commit.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** `$DAMAGE_CONTROL_STATE_DIR`, else `$XDG_STATE_HOME/damage-control`, else `~/.local/state/damage-control`. */
export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DAMAGE_CONTROL_STATE_DIR) return env.DAMAGE_CONTROL_STATE_DIR;
  const base = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), ".local", "state");
  return path.join(base, "damage-control");
}

/** Creates a directory readable by the user only. */
export function ensurePrivateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The audit ledger's name in `<folder>/.damage-control/` (the guard's own paths name it too). */
export const LEDGER_FILE = "audit.jsonl";

/** `<folder>/.damage-control/`, created with a .gitignore that ignores everything in it. */
export function workspaceStateDir(folder: string): string {
  const dir = path.join(folder, ".damage-control");
  // 0700: the ledger is the user's record; no other user reads what the agents ran (issue 35).
  // An older folder made 0755 is tightened the first time it is used.
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  } catch {
    /* not ours to change (another owner): the ledger still writes 0600 */
  }
  const ignore = path.join(dir, ".gitignore");
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, "# Damage Control's audit ledger and state: never commit.\n*\n");
  return dir;
}

/** Writes a file atomically (temp file + rename) with the given mode. */
export function writeFileAtomic(file: string, data: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, data, { mode });
  fs.renameSync(tmp, file);
}
