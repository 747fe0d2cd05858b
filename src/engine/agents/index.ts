// Every agent Damage Control speaks to, by id. The core reads a payload with AGENTS[id].read and
// answers with AGENTS[id].render; `POST /hook/<id>` and `damage-control hook <id>` take any id here.
import { claude } from "./claude";
import { clineWire } from "./cline";
import { cli } from "./cli";
import { codexWire } from "./codex";
import { copilotCliWire } from "./copilot-cli";
import { geminiWire } from "./gemini";
import { pi } from "./pi";
import { opencodeWire } from "./opencode";
import { qwenWire } from "./qwen";
import { vscodeWire } from "./vscode";
import type { AgentId, AgentWire } from "./types";

export const AGENTS: Record<AgentId, AgentWire> = {
  claude,
  pi,
  cli,
  vscode: vscodeWire,
  "copilot-cli": copilotCliWire,
  codex: codexWire,
  gemini: geminiWire,
  qwen: qwenWire,
  opencode: opencodeWire,
  cline: clineWire,
};

/** What people read for an agent id (ledger lines name the id; the panel, modal and status bar this). */
export function agentLabel(id: string): string {
  return (AGENTS as Record<string, AgentWire | undefined>)[id]?.label ?? id;
}

export { isAgentId, type AgentId, type AgentWire, type WireAnswer, type WireRequest } from "./types";
