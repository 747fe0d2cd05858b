// Damage Control with the real Gemini CLI (@google/gemini-cli 0.61.0, pinned in
// scripts/test-tools.js): `damage-control install gemini` writes the BeforeTool hook into the
// project's .gemini/settings.json; `gemini -p` runs one turn against a mock Gemini API on 127.0.0.1.
import { geminiTurn } from "./support/agent-turns";
import { describeGuardedAgent } from "./support/more-agents";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const turn = geminiTurn({ proxy, addCleanup });

describeGuardedAgent("Gemini CLI 0.61.0 with `damage-control install gemini`", { tool: "gemini-0.61.0", agent: "gemini", turn, addCleanup });
