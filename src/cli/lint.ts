// damage-control rules lint FILE: the same diagnostics the editor shows, one per line.
import * as fs from "node:fs";
import { lintRulesText } from "../engine/rules/lint-file";
import * as os from "node:os";
import * as path from "node:path";
import { args, CliError, EXIT } from "./io";

export const LINT_HELP = `Usage: damage-control rules lint FILE

Checks a rules file and prints each finding as
  FILE:LINE:COL: severity: message
(1-based line and column). Exit codes: 0 no errors (warnings allowed), 1 errors found,
2 bad usage, 3 file unreadable.`;

export function runLint(argv: string[]): number {
  const { positionals } = args(argv, {}, true);
  if (positionals.length !== 1) throw new CliError("rules lint takes exactly one FILE");
  const file = positionals[0];
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT.io);
  }
  // Exceptions are linted too (one that lifts nothing: warning; one on a zero-access path: error).
  const parsed = lintRulesText(text, { root: path.resolve(path.dirname(file), path.basename(path.dirname(file)) === ".pi" ? ".." : "."), home: process.env.HOME ?? os.homedir() });
  for (const d of parsed.diagnostics) {
    process.stdout.write(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}\n`);
  }
  const errors = parsed.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = parsed.diagnostics.length - errors;
  process.stderr.write(`${errors} error(s), ${warnings} warning(s)\n`);
  return errors > 0 ? EXIT.findings : EXIT.ok;
}
