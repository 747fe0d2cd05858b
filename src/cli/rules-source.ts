// Which rules a CLI verb uses: --rules FILE, else the workspace rules file under --cwd, else the
// embedded defaults. A broken file is an error here: the CLI has no last good rules to fall back to.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseRules } from "../engine/rules/parse";
import { defaultRules } from "../engine/rules/defaults";
import type { RuleSet } from "../engine/types";
import { findRulesFile } from "../core/rules-store";
import { CliError, EXIT } from "./io";

export interface LoadedRules {
  rules: RuleSet;
  /** The file, or "(embedded defaults)". */
  source: string;
  /** The folder relative rule entries are anchored to. */
  root: string;
}

export function loadCliRules(rulesFlag: string | undefined, cwd: string): LoadedRules {
  const file = rulesFlag ? path.resolve(rulesFlag) : findRulesFile(cwd);
  if (!file) return { rules: defaultRules(), source: "(embedded defaults)", root: cwd };
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new CliError(`cannot read rules file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT.io);
  }
  const parsed = parseRules(text);
  if (!parsed.ok) {
    const first = parsed.diagnostics.find((d) => d.severity === "error")!;
    throw new CliError(`rules file ${file} has errors (line ${first.range.start.line + 1}: ${first.message}); run: damage-control rules lint ${file}`, EXIT.io);
  }
  return { rules: parsed.rules, source: file, root: rulesRoot(file, rulesFlag ? cwd : undefined) };
}

/** A file at <root>/.pi/x.yaml is anchored at <root>; an explicit file elsewhere at the cwd. */
function rulesRoot(file: string, explicitCwd: string | undefined): string {
  const dir = path.dirname(file);
  if (path.basename(dir) === ".pi") return path.dirname(dir);
  return explicitCwd ?? dir;
}
