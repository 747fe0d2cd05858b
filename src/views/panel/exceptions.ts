// "Allow in this folder" (the feed's action and the ask modal's "Always allow in this folder"):
// an exception in the folder's layered rules. The writer belongs to the layered-rules work
// (issue 15); the panel and the modal call only `folderExceptionWriter()` below, and show their
// button only when it returns a writer.
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
export type ExceptionWriter = (exception: FolderException) => Promise<{ file: string; line?: number }>;

/**
 * THE hook for the layered rules' exception writer (issue 15, h6): return it here once it exists.
 * Until then there is none, so "Allow in this folder" is disabled and the modal offers no
 * "Always allow". Never return a writer that can fail open: an exception is a human's decision.
 */
export function folderExceptionWriter(_guard: Guard | undefined): ExceptionWriter | undefined {
  return undefined;
}
