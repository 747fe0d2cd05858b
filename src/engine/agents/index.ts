// Every agent Damage Control speaks to, by id. The core reads a payload with AGENTS[id].read and
// answers with AGENTS[id].render; `POST /hook/<id>` and `damage-control hook <id>` take any id here.
import { claude } from "./claude";
import { cli } from "./cli";
import { pi } from "./pi";
import { unsupportedAgent, type AgentId, type AgentWire } from "./types";

export const AGENTS: Record<AgentId, AgentWire> = {
  claude,
  pi,
  cli,
  // Slots for the adapters other work adds (one file each in this folder); until then every
  // call from them is refused.
  vscode: unsupportedAgent("vscode", "VS Code's agent"),
  "copilot-cli": unsupportedAgent("copilot-cli", "GitHub Copilot CLI"),
  codex: unsupportedAgent("codex", "Codex CLI"),
  gemini: unsupportedAgent("gemini", "Gemini CLI"),
};

export { isAgentId, type AgentId, type AgentWire, type WireAnswer, type WireRequest } from "./types";
