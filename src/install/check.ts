// One line of `damage-control doctor`'s report: the doctor collects them, each agent's installer
// contributes its own (copilot.ts, doctor-agents.ts).
export type CheckStatus = "ok" | "warn" | "fail";

/** Where Damage Control stands with one agent: our hook absent, in force, or present but skipped. */
export type AgentState = "not-installed" | "guarding" | "not-guarding";

export interface Check {
  id: string;
  status: CheckStatus;
  message: string;
  /** Set on the checks of an agent (agent-checks.ts): its name and the state the panel shows.
   *  An agent check without it still shows, its state read from status and message (agent-health.ts). */
  agent?: { label: string; state: AgentState };
}
