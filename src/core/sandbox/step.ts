// The sandbox step of a decision (issue 34, items 3 and 4): after the rules (or a human) let a
// shell call run, an agent without a sandbox of its own gets it rewritten to run in ours.
//   off       nothing changes
//   auto      sandboxed where the agent can rewrite its input and this machine can sandbox;
//             else it runs as before, and the record says why it was not
//   required  a shell call that cannot run sandboxed is refused, with the reason and the fix
// Only an answer that already lets the call run (neutral: the rules say nothing against it;
// allow: a human's Allow) carries a rewrite: an ask nobody answered stays a refusal.
import * as os from "node:os";
import * as path from "node:path";
import type { AgentId } from "../../engine/agents/types";
import type { Answer } from "../../engine/render";
import type { SandboxMode, SandboxPolicy } from "../../engine/sandbox/policy-types";
import { isObject, type WireRequest } from "../../engine/agents/types";
import type { KernelReach } from "../../engine/sandbox/kernel-reach";
import { claudeSandboxInForce } from "../../engine/sandbox/claude-in-force";
import { sandboxAvailability } from "./availability";
import { claudeScopes } from "./claude-settings";
import { sandboxMachine } from "./machine";
import { kernelReachOf } from "./policy-for";
import { SandboxRunner } from "./runner";

export interface GuardSandboxOptions {
  /** The sandbox setting for a folder (default auto). */
  mode: (folder: string) => SandboxMode;
  /** The folder's policy, from its effective rules; undefined: none can be made. */
  policy: (folder: string) => SandboxPolicy | undefined;
  /** The guard's private state folder: the runner and its policy files live in <state>/sandbox/. */
  stateDir: string;
  /** Where bubblewrap is looked up (PATH); default the guard's own environment. */
  env?: NodeJS.ProcessEnv;
  /** What a policy enforces of the rules (default: what sandboxPolicyFor computed with it; tests pass their own). */
  reach?: (policy: SandboxPolicy) => KernelReach | undefined;
  /** Claude Code's managed settings file (default /etc/claude-code/managed-settings.json; tests pass their own). */
  claudeManaged?: string;
}

/**
 * Agents whose pre-tool hook can replace the shell command, measured with each real CLI
 * (docs/sandbox-runner.md). Claude Code and VS Code's agent have sandboxes of their own (set
 * from the rules elsewhere) and are never rewritten.
 */
// Qwen Code 0.24.4 documents updatedInput but ignores it on PreToolUse (with or without "allow", measured).
export const RUNNER_AGENTS: ReadonlySet<AgentId> = new Set<AgentId>(["codex", "gemini", "pi", "opencode", "cline"]);
const OWN_SANDBOX: ReadonlySet<AgentId> = new Set<AgentId>(["claude", "vscode", "cli"]);

/**
 * Agents that take a rewrite only with "allow", which also skips their own approval prompt: the
 * rewrite of a call the rules said nothing about is given only where the payload shows no prompt
 * would be shown anyway (we never answer allow where a human would have been asked). A human's
 * Allow in our modal needs no such check. Copilot CLI 1.0.102 takes `modifiedArgs` only with
 * allow too (measured) and says nothing of its approval mode in its payload: not rewritten.
 */
const PROMPT_FREE: Partial<Record<AgentId, (raw: unknown) => boolean>> = {
  codex: (raw) => isObject(raw) && raw.permission_mode === "bypassPermissions",
};

/** What the feed and the ledger say of the sandbox for one call; `instead`: the question the
 * kernel answered (the call ran without it because it ran sandboxed). */
export type SandboxNote = { ran: "bubblewrap"; policy: string; instead?: string } | { ran: "claude-code"; instead: string } | { unsandboxed: string };

export interface SandboxStep {
  answer: Answer;
  note?: SandboxNote;
}

export class GuardSandbox {
  private runner?: SandboxRunner;

  constructor(private readonly o: GuardSandboxOptions) {}

  /**
   * What the kernel sandbox will enforce on this call if the rules let it run without a question:
   * set only where the step would then certainly rewrite it (a runner agent, a mode not off, a
   * machine that can, an agent that takes the rewrite without skipping its own question, a
   * policy). The runner fails closed: bubblewrap that cannot start, or a policy file that is gone,
   * runs nothing (docs/sandbox-runner.md). Claude Code: see claudeReach. VS Code's agent: never.
   */
  reach(req: WireRequest, folder: string): KernelReach | undefined {
    if (req.agent === "claude") return this.claudeReach(req, folder);
    const command = req.call?.tool === "bash" && !req.calls ? (req.call.input as { command?: unknown }).command : undefined;
    if (typeof command !== "string" || !RUNNER_AGENTS.has(req.agent) || this.o.mode(folder) === "off") return undefined;
    if (PROMPT_FREE[req.agent] && !PROMPT_FREE[req.agent]!(req.raw)) return undefined;
    if (!sandboxAvailability(this.o.env ?? process.env).ok) return undefined;
    const policy = this.o.policy(folder);
    return policy && policy.version === 1 ? (this.o.reach ?? kernelReachOf)(policy) : undefined;
  }

  /**
   * A Claude Code Bash call certainly runs in Claude Code's own sandbox only when: the folder's mode
   * is `required` (install wrote failIfUnavailable: Claude Code refuses to start without it; under
   * `auto` it runs commands unsandboxed where its sandbox cannot start); this machine can run it
   * (bubblewrap, socat, rg); the session's project is this folder (its transcript sits under the
   * folder's name: the settings read are the ones it loaded); every settings scope keeps it on with
   * no way out and the file we write holds the policy in force (claudeSandboxInForce); and the call
   * does not ask to leave it (the hook refuses that anyway). Anything else: undefined, asked as before.
   */
  private claudeReach(req: WireRequest, folder: string): KernelReach | undefined {
    const input = req.call?.tool === "bash" && !req.calls ? (req.call.input as { command?: unknown; dangerouslyDisableSandbox?: unknown }) : undefined;
    if (typeof input?.command !== "string" || input.dangerouslyDisableSandbox !== undefined || this.o.mode(folder) !== "required") return undefined;
    const env = this.o.env ?? process.env;
    if (!sandboxAvailability(env).ok || !sandboxMachine(env).agentSandboxes) return undefined;
    const transcript = isObject(req.raw) ? req.raw.transcript_path : undefined;
    if (typeof transcript !== "string" || path.basename(path.dirname(transcript)) !== claudeProjectName(folder)) return undefined;
    const policy = this.o.policy(folder);
    if (!policy || policy.version !== 1) return undefined;
    const scopes = claudeScopes(folder, env, env.HOME || os.homedir(), this.o.claudeManaged);
    const inForce = scopes && claudeSandboxInForce(scopes, policy);
    if (!inForce?.ok) return undefined;
    const reach = (this.o.reach ?? kernelReachOf)(policy);
    if (!reach) return undefined;
    return { ...(inForce.writes ? reach : { reads: reach.reads, writes: false, readOnly: [] }), outside: inForce.outside };
  }

  /**
   * The step of an ask the kernel answered: the call runs only if it does run sandboxed — our
   * runner's rewrite, or (Claude Code) its own sandbox, checked again now. Undefined: ask as before.
   */
  kernelStep(req: WireRequest, folder: string): SandboxStep | undefined {
    if (req.agent === "claude") return this.claudeReach(req, folder) ? { answer: { kind: "neutral" }, note: { ran: "claude-code", instead: "" } } : undefined;
    const s = this.step(req, { kind: "neutral" }, folder);
    return s.note && "ran" in s.note && s.answer.kind === "neutral" && s.answer.run !== undefined ? s : undefined;
  }

  step(req: WireRequest, answer: Answer, folder: string): SandboxStep {
    if (answer.kind !== "neutral" && answer.kind !== "allow") return { answer };
    const command = req.call?.tool === "bash" && !req.calls ? (req.call.input as { command?: unknown }).command : undefined;
    if (typeof command !== "string" || OWN_SANDBOX.has(req.agent)) return { answer };
    const mode = this.o.mode(folder);
    if (mode === "off") return { answer };
    const avail = sandboxAvailability(this.o.env ?? process.env);
    const policy = avail.ok && RUNNER_AGENTS.has(req.agent) ? this.o.policy(folder) : undefined;
    let why: string;
    let fix: string;
    if (!RUNNER_AGENTS.has(req.agent)) {
      why = `the ${req.agent} agent cannot have a shell call rewritten to run in a sandbox`;
      fix = "use an agent the sandbox covers (docs/sandbox-runner.md), or set the sandbox setting to auto";
    } else if (!avail.ok) {
      ({ why, fix } = avail);
    } else if (answer.kind === "neutral" && PROMPT_FREE[req.agent] && !PROMPT_FREE[req.agent]!(req.raw)) {
      why = `${req.agent} would ask its user before this command, and it takes a rewrite only with an allow that would skip that question`;
      fix = "run it where the agent asks nobody (Codex: approval never / full access), or approve the call in Damage Control";
    } else if (!policy || policy.version !== 1) {
      why = policy ? `a sandbox policy of version ${String(policy.version)} is not understood` : "no sandbox policy could be made from this folder's rules";
      fix = "check the rules file (damage-control doctor)";
    } else {
      if (!this.runner) this.runner = new SandboxRunner(this.o.stateDir, avail.bwrap);
      const prepared = this.runner.prepare(policy, command);
      return { answer: { ...answer, run: prepared.command }, note: { ran: "bubblewrap", policy: prepared.id } };
    }
    if (mode === "required") {
      const reason = `Blocked by Damage Control: this shell call cannot run in the sandbox, which is required here (${why}). Fix: ${fix}. Do not work around this; report it to the user.`;
      return { answer: { kind: "deny", reason }, note: { unsandboxed: why } };
    }
    return { answer, note: { unsandboxed: why } };
  }
}

/** The folder name Claude Code keeps a project's transcripts under (~/.claude/projects/<name>/): its path, every other character a dash. */
export function claudeProjectName(folder: string): string {
  return folder.replace(/[^a-zA-Z0-9]/g, "-");
}
