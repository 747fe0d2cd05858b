// Shared fixtures for the shell analysis tests (not a test file itself).
import * as fs from "node:fs";
import * as path from "node:path";
import { corpusDir } from "../../bench/lib/corpus";
import { decideCommand } from "../../src/engine/decide";
import { parseRules } from "../../src/engine/rules/parse";
import { analyzeCommand } from "../../src/engine/shell/analyze";
import { variantsOfCommand } from "../../src/engine/shell/normalize";
import type { CommandAnalysis } from "../../src/engine/shell/types";
import type { RuleSet } from "../../src/engine/types";

export const CWD = "/home/dev/plume-factory";
export const HOME = "/home/dev";

export function analyze(command: string, cwd = CWD): CommandAnalysis {
  return analyzeCommand(command, { cwd, home: HOME });
}

/** Every text the patterns are tested on: each command's text and variants. */
export function texts(command: string): string[] {
  return analyze(command).commands.flatMap((c) => [c.text, ...(variantsOfCommand(c) ?? [])]);
}

export function someText(command: string, re: RegExp): boolean {
  return texts(command).some((t) => re.test(t));
}

let rules: RuleSet | undefined;
export function referenceRules(): RuleSet {
  if (!rules) {
    const dir = corpusDir(path.resolve(__dirname, "../../.."));
    rules = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8")).rules;
  }
  return rules;
}

export function verdict(command: string) {
  return decideCommand(command, referenceRules(), { cwd: CWD, home: HOME });
}
