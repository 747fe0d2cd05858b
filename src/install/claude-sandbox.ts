// Claude Code's own sandbox, configured from the rules: the `sandbox` key of the project's
// .claude/settings.local.json (the file our hooks live in), written by `install claude` and
// re-rendered on every rules change while a guard runs (keepSandboxInStep). Which entries are ours
// is kept in <folder>/.damage-control/claude-sandbox.json (read-only inside the sandbox), so a
// re-render replaces exactly ours and the user's own entries stay.
import * as fs from "node:fs";
import * as path from "node:path";
import { listOurHooks } from "../engine/claude-settings";
import { claudeSandboxWant } from "../engine/sandbox/agents";
import { applyOurs, NO_OURS, type OursRecord } from "../engine/sandbox/ours";
import { sandboxMode } from "../engine/sandbox/policy";
import type { SandboxMode } from "../engine/sandbox/policy-types";
import type { RuleSet } from "../engine/types";
import type { Guard } from "../core/guard";
import type { RulesState } from "../core/rules-store";
import { sandboxPolicyFor } from "../core/sandbox/policy-for";
import { workspaceStateDir, writeFileAtomic } from "../core/state-dir";
import { readJsonObject, writeJsonIfChanged } from "./json-file";

const SETTINGS = ".claude/settings.local.json";

export function claudeSandboxRecord(folder: string): string {
  return path.join(folder, ".damage-control", "claude-sandbox.json");
}

function readRecord(folder: string): OursRecord {
  try {
    const r = JSON.parse(fs.readFileSync(claudeSandboxRecord(folder), "utf8")) as OursRecord;
    return Array.isArray(r.lists) && Array.isArray(r.values) ? r : NO_OURS;
  } catch {
    return NO_OURS;
  }
}

function writeRecord(folder: string, ours: OursRecord): void {
  if (ours.lists.length === 0 && ours.values.length === 0) {
    fs.rmSync(claudeSandboxRecord(folder), { force: true });
    return;
  }
  workspaceStateDir(folder);
  writeFileAtomic(claudeSandboxRecord(folder), JSON.stringify(ours, null, 2) + "\n", 0o644);
}

export interface ClaudeSandboxResult {
  mode: SandboxMode;
  changed: boolean;
  denyRead: number;
  denyWrite: number;
}

/**
 * `settings` with our `sandbox` entries for the rules in force (none under `off`), and `commit`,
 * which records which entries are ours: call it when the settings are written.
 */
export function withClaudeSandbox(folder: string, settings: Record<string, unknown>, rules: RuleSet, env: NodeJS.ProcessEnv = process.env): { settings: Record<string, unknown>; result: Omit<ClaudeSandboxResult, "changed">; commit(): void } {
  // Only for builds with HTTP hooks (2.1.295 and later; measured with 2.1.332). With 2.1.197 (command
  // hooks) and the same settings, a plain `echo hi > out.txt` in the workspace did not write.
  const mode = sandboxableBuild(settings) ? sandboxMode(rules) : "off";
  const policy = sandboxPolicyFor(folder, rules, { env });
  const next = applyOurs(settings, claudeSandboxWant(policy, mode), readRecord(folder));
  const on = mode !== "off";
  return { settings: next.settings, result: { mode, denyRead: on ? policy.denyRead.length : 0, denyWrite: on ? policy.denyWrite.length : 0 }, commit: () => writeRecord(folder, next.ours) };
}

/** Writes our `sandbox` entries for the rules in force into the settings file (none under `off`). */
export function renderClaudeSandbox(folder: string, rules: RuleSet, env: NodeJS.ProcessEnv = process.env): ClaudeSandboxResult {
  const file = path.join(folder, SETTINGS);
  const r = withClaudeSandbox(folder, readJsonObject(file), rules, env);
  // Record first: a crash between the two leaves a record naming entries that are not there, harmless.
  r.commit();
  return { ...r.result, changed: writeJsonIfChanged(file, r.settings) };
}

/** Our hooks in these settings are HTTP hooks: a Claude Code build whose sandbox we have measured. */
function sandboxableBuild(settings: Record<string, unknown>): boolean {
  return listOurHooks(settings).some((h) => h.hook.type === "http");
}

/** Takes our `sandbox` entries out (uninstall), restoring what the user had. */
export function removeClaudeSandbox(folder: string): boolean {
  const file = path.join(folder, SETTINGS);
  const record = readRecord(folder);
  if (record === NO_OURS) return false;
  let changed = false;
  if (fs.existsSync(file)) {
    const { settings } = applyOurs(readJsonObject(file), { lists: [], values: [] }, record);
    if (Object.keys(settings).length === 0) {
      fs.rmSync(file);
      changed = true;
    } else changed = writeJsonIfChanged(file, settings);
  }
  writeRecord(folder, NO_OURS);
  return changed;
}

/**
 * While a guard runs: on every rules change, the folders whose Claude Code settings hold our hooks
 * get the sandbox of the new rules (a zero-access path added is unreadable in the next sandboxed
 * call). Once at start too. Returns the unsubscribe.
 */
export function keepClaudeSandboxInStep(guard: Guard, env: NodeJS.ProcessEnv = process.env): () => void {
  const sync = (s: RulesState) => {
    try {
      if (listOurHooks(readJsonObject(path.join(s.folder, SETTINGS))).length > 0) renderClaudeSandbox(s.folder, s.rules, env);
    } catch {
      /* a settings file that is not JSON: doctor reports it; the hooks' own install path says how */
    }
  };
  for (const s of guard.rulesStates()) sync(s);
  guard.on("rules", sync);
  return () => guard.off("rules", sync);
}
