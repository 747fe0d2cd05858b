// Which rules a CLI verb uses: --rules FILE alone (the whole policy), else the layers: managed →
// user → the workspace rules file under --cwd (its additions only, unless --trust-workspace-rules)
// → the embedded defaults. A broken workspace file is an error here: the CLI has no last good rules.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseRules } from "../engine/rules/parse";
import { policyOnly } from "../engine/rules/layers";
import type { RuleSet } from "../engine/types";
import { loadLayered, withGuardOwnPaths, type LayeredResult } from "../core/layer-files";
import { findRulesFile } from "../core/rules-store";
import { CliError, EXIT } from "./io";

export interface LoadedRules {
  rules: RuleSet;
  /** The file, or "(embedded defaults)". */
  source: string;
  /** The folder relative rule entries are anchored to. */
  root: string;
  /** The workspace file's loosening that is not in force (without --trust-workspace-rules). */
  pending?: LayeredResult["pending"];
}

export function loadCliRules(rulesFlag: string | undefined, cwd: string, trustWorkspace = false): LoadedRules {
  const file = rulesFlag ? path.resolve(rulesFlag) : findRulesFile(cwd);
  const layered = (workspace?: { file: string; rules: RuleSet; text: string }, root = cwd): LoadedRules => {
    const r = loadLayered({ workspace, trust: trustWorkspace ? { kind: "always" } : { kind: "never" } });
    return { rules: withGuardOwnPaths(r.rules, root), source: workspace?.file ?? "(embedded defaults)", root, ...(r.pending && { pending: r.pending }) };
  };
  if (!file) return layered();
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
  const root = rulesRoot(file, rulesFlag ? cwd : undefined);
  // --rules FILE is exactly that policy: a corpus scored against it measures that file and nothing else.
  if (rulesFlag) return { rules: policyOnly(parsed.rules), source: file, root };
  return layered({ file, rules: parsed.rules, text }, root);
}

/** A file at <root>/.pi/x.yaml is anchored at <root>; an explicit file elsewhere at the cwd. */
function rulesRoot(file: string, explicitCwd: string | undefined): string {
  const dir = path.dirname(file);
  if (path.basename(dir) === ".pi") return path.dirname(dir);
  return explicitCwd ?? dir;
}
