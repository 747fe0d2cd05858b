// Small helpers shared by the CLI verbs: errors without stack traces, stdin, exit codes.
import * as fs from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Documented exit codes (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** `rules lint` found errors; `doctor` found the folder unguarded. */
  findings: 1,
  /** Bad usage or bad input (unknown flag, invalid JSON, unknown tool shape). */
  usage: 2,
  /** A file could not be read or the rules file is broken. */
  io: 3,
  /** The endpoint could not start (port taken…). */
  unavailable: 4,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.usage,
  ) {
    super(message);
  }
}

export function readStdin(): string {
  try {
    return fs.readFileSync(0, "utf8");
  } catch (e) {
    throw new CliError(`cannot read standard input: ${(e as Error).message}`, EXIT.io);
  }
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${what} is not valid JSON: ${(e as Error).message.replace(/\s+/g, " ")}`);
  }
}

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function args<T extends ParseArgsConfig["options"]>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (e) {
    throw new CliError((e as Error).message.split("\n")[0]);
  }
}

export function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}
