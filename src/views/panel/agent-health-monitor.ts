// Keeps the panel's agent health lines current without blocking the extension host: the doctor's
// agent checks read a few small files (no agent CLI is started), run off the caller's path
// (setTimeout, coalesced), while the panel is visible: when it opens or shows, every REFRESH_MS,
// and when VS Code's agent's hook file or the chat settings change. A change is posted; the same
// lines again are not.
import * as vscode from "vscode";
import { agentChecks } from "../../install/agent-checks";
import { sandboxHealthCheck } from "../../install/doctor-sandbox";
import type { RuleSet } from "../../engine/types";
import type { Check } from "../../install/check";
import { vscodeAgentStatus } from "../guard-vscode-agent";
import { agentLines } from "./agent-health";
import type { AgentLine } from "./messages";

/** How often the lines are checked again while the panel is visible (an agent installed from a terminal). */
export const REFRESH_MS = 10_000;

export class AgentHealthMonitor implements vscode.Disposable {
  private lines: AgentLine[] | undefined;
  private key = "";
  private pending: ReturnType<typeof setTimeout> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly folder: () => string | undefined,
    private readonly onChange: (lines: AgentLine[]) => void,
    /** The rules in force for a folder (the guard's), for the sandbox line; none while the guard is down. */
    private readonly rulesOf?: (folder: string) => RuleSet | undefined,
  ) {}

  get current(): AgentLine[] | undefined {
    return this.lines;
  }

  /** Checks again soon (several calls in a row: once). */
  refresh(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.check();
    }, 0);
  }

  /** The panel shown or hidden: check now and keep checking, or stop. */
  setVisible(visible: boolean): void {
    if (visible) {
      this.refresh();
      this.timer ??= setInterval(() => this.refresh(), REFRESH_MS);
    } else if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private check(): void {
    const folder = this.folder();
    const checks: Check[] = [];
    try {
      checks.push(vscodeAgentStatus(folder));
    } catch (e) {
      // A check that cannot run says so; it never reads as guarded.
      checks.push({ id: "vscode", status: "fail", message: vscode.l10n.t("Could not check VS Code's agent: {0}", (e as Error).message), agent: { label: "VS Code's agent", state: "not-guarding" } });
    }
    try {
      if (folder) checks.push(...agentChecks(folder));
      // The kernel sandbox the rules make: where this machine cannot run it, the panel says so (docs/sandbox.md).
      const rules = folder ? this.rulesOf?.(folder) : undefined;
      if (folder && rules) checks.push(sandboxHealthCheck(folder, rules));
    } catch (e) {
      checks.push({ id: "agents", status: "fail", message: vscode.l10n.t("Could not check the agents: {0}", (e as Error).message), agent: { label: vscode.l10n.t("Agents"), state: "not-guarding" } });
    }
    const lines = agentLines(checks, vscode.l10n.t);
    const key = JSON.stringify(lines);
    if (key === this.key) return;
    this.key = key;
    this.lines = lines;
    this.onChange(lines);
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    if (this.timer) clearInterval(this.timer);
    this.pending = this.timer = undefined;
  }
}
