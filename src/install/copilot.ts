// Installing the command hook that guards VS Code's own agent (and GitHub Copilot CLI, which
// reads the same files): ~/.copilot/hooks/damage-control.json for this user, or, with --repo,
// <folder>/.github/hooks/damage-control.json for a team.
//
// ONE entry, in Copilot CLI's format ({"version":1,"hooks":{"preToolUse":[{type,bash,powershell,
// timeoutSec}]}}): VS Code reads that format too (its hook loader maps "preToolUse" and
// "PreToolUse" both onto PreToolUse, "bash" onto its linux/osx command, "powershell" onto windows,
// "timeoutSec" onto timeout), so each caller runs exactly one entry per tool call. A second entry
// under "PreToolUse" would make VS Code run the hook twice for every call.
//
// The user file names this machine's launcher (never committed). The repository file names no
// machine path and holds no secret: it runs the launcher where Damage Control keeps it on each
// machine (${DAMAGE_CONTROL_STATE_DIR:-${XDG_STATE_HOME:-~/.local/state}/damage-control}/bin). A
// teammate without Damage Control has no such file: the shell answers 127, which VS Code treats
// as a failed hook and goes on (a warning, not a lock-out).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AgentState, Check } from "./check";
import { readJsonObject, writeJsonIfChanged } from "./json-file";
import { launcherPaths, PORTABLE_LAUNCHER, PORTABLE_LAUNCHER_PS1, shQuote } from "./launcher";

export const COPILOT_HOOK_FILE = "damage-control.json";
/** VS Code cuts a hook at its timeout and then FAILS OPEN: the hook must outlive a pending ask. */
export const HOOK_TIMEOUT_MARGIN_SECONDS = 15;

export function userHookFile(home = os.homedir()): string {
  return path.join(home, ".copilot", "hooks", COPILOT_HOOK_FILE);
}

export function repoHookFile(folder: string): string {
  return path.join(folder, ".github", "hooks", COPILOT_HOOK_FILE);
}

export interface CopilotInstallOptions {
  /** user: ~/.copilot/hooks (this machine's paths); repo: <folder>/.github/hooks (portable). */
  scope: "user" | "repo";
  home?: string;
  folder?: string;
  stateDir?: string;
  askTimeoutSeconds?: number;
}

/** The hook file's content. */
export function copilotHookFile(o: CopilotInstallOptions): Record<string, unknown> {
  const timeout = Math.max(1, Math.round(o.askTimeoutSeconds ?? 30)) + HOOK_TIMEOUT_MARGIN_SECONDS;
  let bash: string;
  let powershell: string;
  if (o.scope === "repo") {
    bash = `${PORTABLE_LAUNCHER} copilot`;
    powershell = `${PORTABLE_LAUNCHER_PS1} copilot`;
  } else {
    const p = launcherPaths(o.stateDir);
    bash = `${shQuote(p.sh)} copilot`;
    powershell = `& '${p.ps1.replace(/'/g, "''")}' copilot`;
  }
  return {
    version: 1,
    hooks: {
      preToolUse: [{ type: "command", bash, powershell, timeoutSec: timeout }],
    },
  };
}

function fileFor(o: CopilotInstallOptions): string {
  if (o.scope === "repo") {
    if (!o.folder) throw new Error("a repository install needs the folder");
    return repoHookFile(o.folder);
  }
  return userHookFile(o.home);
}

export function installCopilot(o: CopilotInstallOptions): { file: string; changed: boolean } {
  const file = fileFor(o);
  return { file, changed: writeJsonIfChanged(file, copilotHookFile(o)) };
}

/** Is this hook file ours (written by installCopilot, any version)? */
export function isOurCopilotFile(file: string): boolean {
  try {
    return JSON.stringify(readJsonObject(file)).includes("damage-control-hook");
  } catch {
    return false;
  }
}

/** Removes exactly our file (never someone else's file of the same name). */
export function uninstallCopilot(o: CopilotInstallOptions): { file: string; removed: boolean } {
  const file = fileFor(o);
  if (!fs.existsSync(file) || !isOurCopilotFile(file)) return { file, removed: false };
  fs.rmSync(file);
  return { file, removed: true };
}

export interface VsCodeAgentFacts {
  home?: string;
  stateDir?: string;
  folder?: string;
  /** VS Code's chat.useHooks (undefined: unknown, e.g. from the CLI). */
  useHooks?: boolean;
  /** A policy (ChatHooks / chat.hooks.allowManagedOnly) switched user hooks off. */
  policyBlocks?: boolean;
  /** The workspace is trusted (hooks run only there); undefined: unknown. */
  trusted?: boolean;
}

/** Is VS Code's agent guarded? One doctor line; the extension fills in what only it can see. */
export function vscodeAgentCheck(f: VsCodeAgentFacts = {}): Check {
  const user = userHookFile(f.home);
  const repo = f.folder ? repoHookFile(f.folder) : undefined;
  const files = [user, ...(repo ? [repo] : [])].filter((x) => fs.existsSync(x) && isOurCopilotFile(x));
  const launcher = launcherPaths(f.stateDir).sh;
  const id = "vscode";
  const agent = (state: AgentState) => ({ label: "VS Code's agent", state });
  if (files.length === 0) return { id, status: "warn", message: `VS Code's agent is not guarded: no ${user} (damage-control install copilot, or "Damage Control: Guard VS Code's Agent")`, agent: agent("not-installed") };
  if (!fs.existsSync(launcher)) return { id, status: "fail", message: `${files.join(", ")} runs ${launcher}, which is missing: VS Code's agent fails open (open VS Code with Damage Control, or run damage-control install copilot)`, agent: agent("not-guarding") };
  if (f.useHooks === false) return { id, status: "fail", message: `chat.useHooks is off: VS Code runs no hooks, its agent is not guarded`, agent: agent("not-guarding") };
  if (f.policyBlocks) return { id, status: "fail", message: `a policy (ChatHooks / chat.hooks.allowManagedOnly) keeps VS Code from running user hooks: its agent is not guarded`, agent: agent("not-guarding") };
  if (f.trusted === false) return { id, status: "fail", message: `this workspace is not trusted: VS Code runs no hooks in it, its agent is not guarded`, agent: agent("not-guarding") };
  const unknown = f.useHooks === undefined ? " (VS Code runs hooks only with chat.useHooks on, in a trusted workspace)" : "";
  return { id, status: "ok", message: `VS Code's agent is guarded by ${files.join(", ")}${unknown}`, agent: agent("guarding") };
}
