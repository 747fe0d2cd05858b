// Every agent Damage Control speaks to, by id. The core reads a payload with AGENTS[id].read and
// answers with AGENTS[id].render; `POST /hook/<id>` and `damage-control hook <id>` take any id here.
import { claude } from "./claude";
import { cli } from "./cli";
import { pi } from "./pi";
import { copilotCliWire } from "./copilot-cli";
import { vscodeWire } from "./vscode";
import { unsupportedAgent, type AgentId, type AgentWire } from "./types";

export const AGENTS: Record<AgentId, AgentWire> = {
  claude,
  pi,
  cli,
  // Slots for the adapters other work adds (one file each in this folder); until then every
  // call from them is refused.
  vscode: vscodeWire,
  // h3's stub of Copilot CLI's shape (h5 owns src/engine/agents/copilot-cli.ts and replaces it).
  "copilot-cli": copilotCliWire,
  codex: unsupportedAgent("codex", "Codex CLI"),
  gemini: unsupportedAgent("gemini", "Gemini CLI"),
};

export { isAgentId, type AgentId, type AgentWire, type WireAnswer, type WireRequest } from "./types";
