// STUB of h1's agent table (src/engine/agents/index.ts): only the agents h5 adds. On merge,
// h1's AGENTS table gains these three entries.
import { codexWire } from "./codex";
import { copilotCliWire } from "./copilot-cli";
import { geminiWire } from "./gemini";
import type { AgentId, AgentWire } from "./types";

export const MORE_AGENTS: Partial<Record<AgentId, AgentWire>> = {
  codex: codexWire,
  gemini: geminiWire,
  "copilot-cli": copilotCliWire,
};

/** What people read for an agent id: ledger lines, the panel's feed, the ask modal, the status bar. */
export const AGENT_LABELS: Record<AgentId, string> = {
  claude: "Claude Code",
  pi: "pi",
  vscode: "VS Code's agent",
  "copilot-cli": copilotCliWire.label,
  codex: codexWire.label,
  gemini: geminiWire.label,
  cli: "damage-control check",
};

export function agentLabel(id: string): string {
  return (AGENT_LABELS as Record<string, string>)[id] ?? id;
}
