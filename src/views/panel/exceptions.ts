// "Allow in this folder" (the feed's action): the narrowest exception for exactly that command in
// that folder, written by the guard to the user's layer of the rules (never the workspace file).
// The ask modal's "Always allow in this folder" reaches the same writer through the guard.
import type { Guard } from "../../core/guard";

export interface FolderException {
  folder: string;
  agent: string;
  tool: string;
  /** The command or path the exception is for, as the feed shows it. */
  target: string;
  /** The rule (pattern or path as written) the exception lifts. */
  rule?: string;
}

/** Writes the exception; resolves with the file it went to (and its line, when known). */
export type ExceptionWriter = (exception: FolderException) => Promise<{ file: string; id?: string; line?: number }>;

/**
 * The writer, while a guard runs. Only a command refused by a bash pattern can be excepted from
 * here: a path exception is written in the rules file by hand, and a zero-access path never is.
 */
export function folderExceptionWriter(guard: Guard | undefined): ExceptionWriter | undefined {
  if (!guard) return undefined;
  return async (e) => {
    if (e.tool.toLowerCase() !== "bash" || e.target.startsWith("[")) {
      throw new Error("only a refused command can be allowed from the feed; a path exception goes into your rules file (allow: - path: …)");
    }
    return guard.allowInFolder(e.target, e.folder, `allowed from the panel's feed${e.rule ? ` (rule ${e.rule})` : ""}`);
  };
}
