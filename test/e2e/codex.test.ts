// Damage Control with the real Codex CLI (@openai/codex 0.171.0, pinned in scripts/test-tools.js):
// `damage-control install codex` writes the hook + its trust entry into an isolated HOME's
// ~/.codex/config.toml, `codex exec` runs one turn against a mock Responses API on 127.0.0.1.
import { codexTurn } from "./support/agent-turns";
import { describeGuardedAgent } from "./support/more-agents";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const turn = codexTurn({ proxy, addCleanup });

describeGuardedAgent("Codex CLI 0.171.0 with `damage-control install codex`", { tool: "codex-0.171.0", agent: "codex", turn, addCleanup });
