// Damage Control with the real OpenCode (opencode-ai 1.18.33, its native binary, pinned in
// scripts/test-tools.js): `damage-control install opencode` writes the plugin into an isolated
// HOME's ~/.config/opencode/plugins/; `opencode run` runs one turn against a mock OpenAI
// chat-completions API on 127.0.0.1 (the provider declared in the workspace's opencode.json).
import { opencodeTurn } from "./support/agent-turns";
import { describeGuardedAgent } from "./support/more-agents";
import { useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const turn = opencodeTurn({ proxy, addCleanup });

describeGuardedAgent("OpenCode 1.18.33 with `damage-control install opencode`", { tool: "opencode-1.18.33", agent: "opencode", turn, addCleanup });
