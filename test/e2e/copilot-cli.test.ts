// Damage Control with the real GitHub Copilot CLI (@github/copilot 1.0.102, pinned in
// scripts/test-tools.js): a lower-case `preToolUse` entry in the project's .github/hooks/ runs
// `damage-control hook copilot-cli`; `copilot -p` runs one turn against a mock OpenAI chat-completions
// API on 127.0.0.1 (no sign-in: COPILOT_OFFLINE + a custom provider). The turn is `copilotTurn`
// (support/agent-turns.ts), shared with the sandbox suite.
import { describeGuardedAgent } from "./support/more-agents";
import { copilotTurn } from "./support/agent-turns";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

describeGuardedAgent("Copilot CLI 1.0.102 with the preToolUse entry `damage-control install copilot --repo` writes", { tool: "copilot-1.0.102", agent: "copilot-cli", turn: copilotTurn({ proxy, addCleanup }), addCleanup });
