// The shield in the status bar: "N rules · M refusals" (refusals since the window opened);
// warning colours when the rules file is broken or the endpoint is down; click opens the panel.
import * as vscode from "vscode";
import { isRefusal } from "../core/asker";
import { ruleCounts } from "../core/counts";
import type { GuardHost } from "./guard-host";

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private refusals = 0;

  constructor(private readonly host: GuardHost) {
    this.item = vscode.window.createStatusBarItem("damageControl.status", vscode.StatusBarAlignment.Left, 100);
    this.item.name = "Damage Control";
    this.item.command = "damageControl.showPanel";
    host.on("state", () => this.render());
    host.on("rules", () => this.render());
    host.on("decision", (d: { decision: string }) => {
      if (isRefusal(d.decision)) {
        this.refusals++;
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
    const down = this.host.endpoint ? undefined : (this.host.down ?? "starting");
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    this.item.text = `$(${down || broken.length ? "warning" : "shield"}) ${plural(total, "rule")} · ${plural(this.refusals, "refusal")}`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**Damage Control**\n\n`);
    if (down) tip.appendMarkdown(`$(error) Endpoint down: ${down}\n\n`);
    else tip.appendMarkdown(`Endpoint: \`${this.host.endpoint!.url}\`\n\n`);
    for (const s of broken) tip.appendMarkdown(`$(warning) \`${s.file}\` is broken (line ${(s.diagnostics[0]?.range.start.line ?? 0) + 1}): the last good rules stay in force.\n\n`);
    tip.appendMarkdown(`${this.refusals} refusals since this window opened. Click to open the panel.`);
    this.item.tooltip = tip;
    this.item.backgroundColor = down || broken.length ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
