// Installing the bundled pi extension GLOBALLY: its bundles (the extension and the local guard it
// loads beside it) go to <agentDir>/damage-control/ and the extension's absolute path into
// <agentDir>/settings.json "extensions". Project-local .pi/extensions
// are silently skipped by headless pi without project trust (measured), and pi 0.73 discovers
// only *.ts files in <agentDir>/extensions/ — the settings entry loads a .js in both versions.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PI_BUNDLES, PI_EXTENSION_BUNDLE } from "../core/build-info";
import { readJsonObject, writeIfChanged, writeJsonIfChanged } from "./json-file";

/** `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PI_CODING_AGENT_DIR || path.join(env.HOME || os.homedir(), ".pi", "agent");
}

export function piExtensionPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(piAgentDir(env), "damage-control", PI_EXTENSION_BUNDLE);
}

function settingsPath(env: NodeJS.ProcessEnv): string {
  return path.join(piAgentDir(env), "settings.json");
}

export function isPiInstalled(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = piExtensionPath(env);
  try {
    const list = readJsonObject(settingsPath(env)).extensions;
    return PI_BUNDLES.every((b) => fs.existsSync(path.join(path.dirname(file), b))) && Array.isArray(list) && list.includes(file);
  } catch {
    return false;
  }
}

/** `bundle`: the built pi-extension.js; the other bundles are taken from beside it. */
export function installPi(bundle: string, env: NodeJS.ProcessEnv = process.env): { file: string; settings: string; changed: boolean } {
  const file = piExtensionPath(env);
  const settings = settingsPath(env);
  const current = readJsonObject(settings);
  // Every bundle read before any is written: a missing one changes nothing.
  const contents = PI_BUNDLES.map((b) => [b, fs.readFileSync(path.join(path.dirname(bundle), b))] as const);
  let copied = false;
  for (const [b, content] of contents) copied = writeIfChanged(path.join(path.dirname(file), b), content) || copied;
  const list = Array.isArray(current.extensions) ? (current.extensions as unknown[]) : [];
  let listed = false;
  if (!list.includes(file)) {
    listed = writeJsonIfChanged(settings, { ...current, extensions: [...list, file] });
  }
  return { file, settings, changed: copied || listed };
}

export function uninstallPi(env: NodeJS.ProcessEnv = process.env): { file: string; removed: boolean } {
  const file = piExtensionPath(env);
  const settings = settingsPath(env);
  let removed = false;
  const current = readJsonObject(settings);
  if (Array.isArray(current.extensions) && current.extensions.includes(file)) {
    const rest = (current.extensions as unknown[]).filter((e) => e !== file);
    const next: Record<string, unknown> = { ...current, extensions: rest };
    if (rest.length === 0) delete next.extensions;
    fs.writeFileSync(settings, JSON.stringify(next, null, 2) + "\n");
    removed = true;
  }
  if (fs.existsSync(file)) {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    removed = true;
  }
  return { file, removed };
}
