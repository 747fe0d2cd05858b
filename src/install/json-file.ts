// Agent settings files (Claude Code's, pi's) are JSON objects we merge into, never replace:
// read one (missing or empty = {}), and write only when the content changes.
import * as fs from "node:fs";
import * as path from "node:path";

/** The file as an object; {} when missing or empty; throws when it is not a JSON object. */
export function readJsonObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return {};
  }
  if (text.trim() === "") return {};
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

/** Writes data unless the file already holds exactly it; returns whether it wrote. */
export function writeIfChanged(file: string, data: string | Buffer, mode = 0o644): boolean {
  try {
    if (fs.readFileSync(file).equals(Buffer.from(data))) return false;
  } catch {
    /* new file */
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data, { mode });
  return true;
}

export function writeJsonIfChanged(file: string, value: unknown): boolean {
  return writeIfChanged(file, JSON.stringify(value, null, 2) + "\n");
}
