// One line of `damage-control doctor`'s report: the doctor collects them, each agent's installer
// contributes its own (copilot.ts, doctor-agents.ts).
export type CheckStatus = "ok" | "warn" | "fail";

export interface Check {
  id: string;
  status: CheckStatus;
  message: string;
}
