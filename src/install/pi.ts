// Installing the bundled pi extension into pi's GLOBAL extensions folder. Project-local
// .pi/extensions are silently skipped by headless pi without project trust (measured), and a
// guard that is silently skipped is no guard.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const PI_EXTENSION_NAME = "damage-control.js";

/** `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PI_CODING_AGENT_DIR || path.join(env.HOME || os.homedir(), ".pi", "agent");
}

export function piExtensionPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(piAgentDir(env), "extensions", PI_EXTENSION_NAME);
}

export function installPi(bundle: string, env: NodeJS.ProcessEnv = process.env): { file: string; changed: boolean } {
  const file = piExtensionPath(env);
  const data = fs.readFileSync(bundle);
  let before: Buffer | undefined;
  try {
    before = fs.readFileSync(file);
  } catch {
    /* first install */
  }
  if (before && before.equals(data)) return { file, changed: false };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data, { mode: 0o644 });
  return { file, changed: true };
}

export function uninstallPi(env: NodeJS.ProcessEnv = process.env): { file: string; removed: boolean } {
  const file = piExtensionPath(env);
  if (!fs.existsSync(file)) return { file, removed: false };
  fs.rmSync(file);
  return { file, removed: true };
}
