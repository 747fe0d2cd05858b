// The doctor's agents, one check each with its state (not installed / guarding / installed but not
// guarding): what `damage-control doctor` reports and the panel's health lines show. A check added
// to moreAgentChecks (doctor-agents.ts) is listed here, so the panel shows it without changes.
// Files only: no agent CLI is started and nothing goes over the network.
import { claudeHooks } from "./doctor-claude";
import { moreAgentChecks } from "./doctor-agents";
import { managedSettingsPath, readManaged, type ManagedState } from "./managed";
import { isPiInstalled, piExtensionPath } from "./pi";
import type { Check } from "./check";

export function piCheck(env: NodeJS.ProcessEnv): Check {
  const agent = { label: "pi" } as const;
  if (isPiInstalled(env)) return { id: "pi", status: "ok", message: `pi extension installed globally (${piExtensionPath(env)})`, agent: { ...agent, state: "guarding" } };
  return { id: "pi", status: "warn", message: `pi extension not installed (only needed for pi: damage-control install pi)`, agent: { ...agent, state: "not-installed" } };
}

/** Claude Code, pi, then Codex CLI, Gemini CLI, Qwen Code, OpenCode, Copilot CLI and any added later. */
export function agentChecks(folder: string, env: NodeJS.ProcessEnv = process.env, o: { managed?: ManagedState; endpointUrl?: string } = {}): Check[] {
  const managed = o.managed ?? readManaged(managedSettingsPath(env));
  return [claudeHooks(folder, env, managed, o.endpointUrl).check, piCheck(env), ...moreAgentChecks(folder, env)];
}
