// The shield in the status bar: "N rules · M refusals" (refusals since the window opened);
// warning colours when the rules file is broken or the endpoint is down; click opens the panel.
import * as vscode from "vscode";
import { isRefusal } from "../core/asker";
import { ruleCounts } from "../core/counts";
import { agentLabel } from "../engine/agents";
import type { GuardHost } from "./guard-host";

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private refusals = 0;
  /** The last refusal, naming the agent (its adapter's label): "Codex CLI: rm -r data". */
  private last?: string;

  constructor(private readonly host: GuardHost) {
    this.item = vscode.window.createStatusBarItem("damageControl.status", vscode.StatusBarAlignment.Left, 100);
    this.item.name = "Damage Control";
    this.item.command = "damageControl.showPanel";
    host.on("state", () => this.render());
    host.on("rules", () => this.render());
    host.on("decision", (d: { decision: string; agent?: string; target?: string }) => {
      if (isRefusal(d.decision)) {
        this.refusals++;
        this.last = `${agentLabel(d.agent ?? "")}: ${(d.target ?? "").slice(0, 80)}`;
        this.render();
      }
    });
    this.render();
    this.item.show();
  }

  render(): void {
    const guard = this.host.guard;
    const states = guard?.rulesStates() ?? [];
    const total = states.reduce((n, s) => n + ruleCounts(s.rules).total, 0);
    const broken = states.filter((s) => s.broken);
    const t = vscode.l10n.t;
    const down = this.host.endpoint ? undefined : (this.host.down ?? t("starting"));
    const rules = total === 1 ? t("{0} rule", total) : t("{0} rules", total);
    const refusals = this.refusals === 1 ? t("{0} refusal", this.refusals) : t("{0} refusals", this.refusals);
    this.item.text = `$(${down || broken.length ? "warning" : "shield"}) ${rules} · ${refusals}`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**Damage Control**\n\n`);
    if (down) tip.appendMarkdown(`$(error) ${t("Endpoint down: {0}", down)}\n\n`);
    else tip.appendMarkdown(`${t("Endpoint: {0}", `\`${this.host.endpoint!.url}\``)}\n\n`);
    for (const s of broken) tip.appendMarkdown(`$(warning) ${t("{0} is broken (line {1}): the last good rules stay in force.", `\`${s.file}\``, (s.diagnostics[0]?.range.start.line ?? 0) + 1)}\n\n`);
    if (this.last) tip.appendMarkdown(`${t("Last refusal — {0}", this.last.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`))}\n\n`);
    tip.appendMarkdown(this.refusals === 1 ? t("1 refusal since this window opened. Click to open the panel.") : t("{0} refusals since this window opened. Click to open the panel.", this.refusals));
    this.item.tooltip = tip;
    this.item.backgroundColor = down || broken.length ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
