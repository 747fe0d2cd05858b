// doctor's sandbox lines: the mode the rules set, whether this machine can run it (and the fix),
// and whether Claude Code's own sandbox is written from the rules for this folder.
import * as path from "node:path";
import { sandboxMode } from "../engine/sandbox/policy";
import type { RuleSet } from "../engine/types";
import { sandboxMachine } from "../core/sandbox/machine";
import type { Check } from "./check";
import { readJsonObject } from "./json-file";

export function sandboxChecks(folder: string, rules: RuleSet, env: NodeJS.ProcessEnv = process.env): Check[] {
  const mode = sandboxMode(rules);
  if (mode === "off") return [{ id: "sandbox", status: "ok", message: "sandbox off (rules file sandbox.mode): calls are decided on their text only" }];
  const m = sandboxMachine(env);
  const fix = m.fix ? ` (fix: ${m.fix})` : "";
  const out: Check[] = [];
  if (m.agentSandboxes || m.bwrap) {
    out.push({ id: "sandbox", status: m.agentSandboxes ? "ok" : "warn", message: `sandbox ${mode}: ${m.agentSandboxes ? "bubblewrap works here (user namespaces), socat and ripgrep present: shell commands run inside the kernel sandbox" : `bubblewrap works; ${m.problems.join("; ")}${fix}`}` });
  } else {
    const what = mode === "required" ? "shell calls that cannot be sandboxed are refused (Claude Code refuses to start)" : "shell commands run unsandboxed, decided on their text only";
    out.push({ id: "sandbox", status: mode === "required" ? "fail" : "warn", message: `sandbox ${mode} but this machine cannot run it: ${m.problems.join("; ")}; ${what}${fix}` });
  }
  out.push(claudeSandboxCheck(folder, mode));
  return out;
}

/** Is Claude Code's `sandbox` (in the file our hooks live in) written from the rules? */
function claudeSandboxCheck(folder: string, mode: string): Check {
  let s: Record<string, unknown>;
  try {
    s = readJsonObject(path.join(folder, ".claude/settings.local.json"));
  } catch (e) {
    return { id: "sandbox", status: "warn", message: `Claude Code sandbox: ${(e as Error).message}` };
  }
  const sb = s.sandbox as { enabled?: unknown; failIfUnavailable?: unknown; allowUnsandboxedCommands?: unknown; filesystem?: { denyRead?: unknown[]; denyWrite?: unknown[] } } | undefined;
  if (!s.hooks) return { id: "sandbox", status: "ok", message: "Claude Code sandbox: not installed for this folder (damage-control install claude writes it with the hooks)" };
  if (sb?.enabled !== true) return { id: "sandbox", status: "warn", message: `Claude Code sandbox: not enabled in .claude/settings.local.json (damage-control install claude --cwd ${folder})` };
  const escape = sb.allowUnsandboxedCommands !== false ? "; allowUnsandboxedCommands is not false: a command may leave it" : "";
  const strict = (sb.failIfUnavailable === true) === (mode === "required") ? "" : `; failIfUnavailable does not match mode ${mode} (reinstall)`;
  return {
    id: "sandbox",
    status: escape || strict ? "warn" : "ok",
    message: `Claude Code sandbox: on, ${sb.filesystem?.denyRead?.length ?? 0} unreadable and ${sb.filesystem?.denyWrite?.length ?? 0} unwritable paths${sb.failIfUnavailable === true ? ", refuses to start without it" : ""}${escape}${strict}`,
  };
}

/**
 * The panel's agent-health line for the sandbox: one line, the machine and Claude Code's settings
 * together. Not guarding whenever the kernel does not enforce the rules here (the fix in the text).
 */
export function sandboxHealthCheck(folder: string, rules: RuleSet, env: NodeJS.ProcessEnv = process.env): Check {
  const checks = sandboxChecks(folder, rules, env);
  const worst = checks.find((c) => c.status === "fail") ?? checks.find((c) => c.status === "warn") ?? checks[0]!;
  const label = "Kernel sandbox";
  return { id: "sandbox", status: worst.status, message: `${label}: ${worst.message}`, agent: { label, state: worst.status === "ok" ? "guarding" : "not-guarding" } };
}
