// The panel's agent health lines from the doctor's agent checks (src/install/agent-checks.ts):
// pure, so the choice of what to show is tested without VS Code (test/unit/panel-agent-health.test.ts).
//   installed but not guarding  one warning line each: the doctor's reason and the command that fixes it
//   VS Code's agent             always its own line (every VS Code has it), a button while unguarded
//   guarding                    one quiet ok line each, the doctor's message as its tooltip
//   not installed               one quiet line naming them all, not one warning per agent
import type { AgentState, Check } from "../../install/check";
import { MACHINE_LINE_IDS, type AgentLine } from "./messages";

export type Translate = (message: string, ...args: (string | number)[]) => string;
const plain: Translate = (m, ...a) => m.replace(/\{(\d+)\}/g, (w, i: string) => (a[Number(i)] !== undefined ? String(a[Number(i)]) : w));

/** The `damage-control …` command a doctor message names as its fix, if any. */
export function fixCommand(message: string): string | undefined {
  const m = /damage-control (?:install|uninstall|doctor|serve)\b[^)`,;:]*/.exec(message);
  return m ? m[0].trim() : undefined;
}

/** The agent and its state. A check without `agent` (one added later in another shape) is read
 *  from its status and message: a failure is never shown as guarding. */
export function agentOf(c: Check): { label: string; state: AgentState } {
  if (c.agent) return c.agent;
  const prefix = /^([^:]{1,30}):/.exec(c.message)?.[1];
  const state: AgentState = c.status === "fail" ? "not-guarding" : /\bnot installed\b|\bno Damage Control\b/i.test(c.message) ? "not-installed" : "guarding";
  return { label: prefix ?? c.id, state };
}

/** The message without its "Label: " prefix. */
function reason(label: string, message: string): string {
  return message.startsWith(`${label}: `) ? message.slice(label.length + 2) : message;
}

export function agentLines(checks: readonly Check[], t: Translate = plain): AgentLine[] {
  const broken: AgentLine[] = [];
  const vscode: AgentLine[] = [];
  const guarding: AgentLine[] = [];
  const absent: { label: string; fix?: string }[] = [];
  for (const c of checks) {
    const { label, state } = agentOf(c);
    const fix = fixCommand(c.message);
    if (c.id === "vscode") {
      // Not set up yet is said in one short line with its button (the doctor's long message is the
      // tooltip): a newcomer's first screen is not an alarm (issue 38). A hook VS Code skips is said in full.
      const short = state === "not-installed";
      vscode.push({ id: c.id, state, status: c.status, text: short ? t("VS Code's agent is not guarded yet.") : c.message, ...(short && { detail: c.message }), ...(state !== "guarding" && { action: "guardVsCodeAgent" as const }) });
    } else if (state === "not-guarding") {
      broken.push({ id: c.id, state, status: c.status === "ok" ? "warn" : c.status, text: t("{0} is not guarded: {1}", label, reason(label, c.message)), ...(fix && { fix }) });
    } else if (state === "guarding") {
      guarding.push({ id: c.id, state, status: c.status, text: c.status === "ok" ? t("{0}: guarded", label) : t("{0}: guarded, but {1}", label, reason(label, c.message)), detail: c.message });
    } else absent.push({ label, ...(fix && { fix }) });
  }
  const lines = [...broken, ...vscode, ...guarding];
  if (absent.length) {
    // No agent wired at all: the line says so and carries the one command that wires the first
    // (issue 38: say what is missing and the command that fixes it).
    const none = [...broken, ...guarding].every((l) => MACHINE_LINE_IDS.has(l.id));
    const first = absent.find((a) => a.fix);
    lines.push({
      id: "not-installed",
      state: "not-installed",
      status: "ok",
      text: none ? t("No agent is wired yet. Not set up for: {0}", absent.map((a) => a.label).join(", ")) : t("Not set up for: {0}", absent.map((a) => a.label).join(", ")),
      detail: absent.map((a) => (a.fix ? `${a.label}: ${a.fix}` : a.label)).join("\n"),
      ...(none && first?.fix && { fix: first.fix }),
    });
  }
  return lines;
}
