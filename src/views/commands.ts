// The commands of the "Damage Control" category.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { describeRule } from "../engine/reason";
import { DEFAULT_RULES_TEXT } from "../engine/rules/defaults";
import { preferredPort } from "../core/registry";
import { detectClaudeVersion, installClaude, uninstallClaude } from "../install/claude";
import { installPi, uninstallPi } from "../install/pi";
import type { GuardHost } from "./guard-host";
import type { PanelView } from "./panel/panel-view";

export function registerCommands(context: vscode.ExtensionContext, host: GuardHost, panel: PanelView): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  /** The folder a command acts on: the given one, the only one, or the user's pick. */
  async function pickFolder(given?: unknown): Promise<string | undefined> {
    if (typeof given === "string") return given;
    const folders = host.folders();
    if (folders.length <= 1) return folders[0];
    const pick = await vscode.window.showWorkspaceFolderPick({ placeHolder: "Which folder?" });
    return pick?.uri.fsPath;
  }

  function rulesFileOf(folder: string): string {
    return host.guard?.storeFor(folder).file ?? path.join(folder, ".pi/damage-control-rules.yaml");
  }

  /** Writing agent configuration needs a trusted workspace; guarding does not. */
  function requireTrust(): boolean {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window.showWarningMessage("Damage Control keeps guarding this untrusted workspace, but writes no agent configuration into it. Trust the workspace to install hooks.");
    return false;
  }

  reg("damageControl.openRules", async (given) => {
    const folder = await pickFolder(given);
    if (!folder) return;
    const file = rulesFileOf(folder);
    if (!fs.existsSync(file)) {
      const create = await vscode.window.showInformationMessage(`${file} does not exist: the embedded default rules are in force.`, "Create from Defaults");
      if (create !== "Create from Defaults") return;
      await vscode.commands.executeCommand("damageControl.createRules", folder);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file));
  });

  reg("damageControl.createRules", async (given) => {
    const folder = await pickFolder(given);
    if (!folder) return;
    const file = rulesFileOf(folder);
    if (fs.existsSync(file)) {
      void vscode.window.showInformationMessage(`${file} already exists.`);
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, DEFAULT_RULES_TEXT);
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file));
  });

  reg("damageControl.showPanel", async () => {
    await vscode.commands.executeCommand("damageControl.panel.focus");
    panel.reveal();
  });

  reg("damageControl.installClaudeHooks", async (given) => {
    if (!requireTrust()) return;
    const folder = await pickFolder(given);
    if (!folder) return;
    const url = host.endpoint?.url ?? `http://127.0.0.1:${preferredPort(folder)}`;
    // Desktop VS Code's execPath is Electron: ELECTRON_RUN_AS_NODE makes it a plain node (node ignores it).
    const cli = path.join(context.extensionPath, "dist", "cli.js");
    const hookCommand = `ELECTRON_RUN_AS_NODE=1 '${process.execPath}' '${cli}' hook claude`;
    const version = await detectClaudeVersion();
    const r = installClaude({ folder, url, hookCommand, version: version ?? "" });
    const how = r.mode === "http" ? `HTTP hooks (onFailure "block") to ${url}` : `command hooks (Claude Code ${r.version} ignores onFailure)`;
    void vscode.window.showInformationMessage(`Damage Control: ${r.changed ? "installed" : "already installed"} ${how} in ${r.file}${r.version ? ` for Claude Code ${r.version}` : ""}.`);
  });

  reg("damageControl.installPiExtension", () => {
    if (!requireTrust()) return;
    const r = installPi(path.join(context.extensionPath, "dist", "pi-extension.js"));
    void vscode.window.showInformationMessage(`Damage Control: pi extension ${r.changed ? "installed" : "already installed"} at ${r.file}.`);
  });

  reg("damageControl.uninstallHooks", async (given) => {
    if (!requireTrust()) return;
    const folder = await pickFolder(given);
    const removed: string[] = [];
    if (folder) {
      const c = uninstallClaude(folder);
      if (c.removed) removed.push(`${c.removed} Claude Code hook(s) from ${c.file}`);
    }
    const p = uninstallPi();
    if (p.removed) removed.push(`the pi extension ${p.file}`);
    void vscode.window.showInformationMessage(removed.length ? `Damage Control removed ${removed.join(" and ")}.` : "Damage Control: nothing was installed.");
  });

  reg("damageControl.showAuditLog", async (given) => {
    const folder = await pickFolder(given);
    if (!folder || !host.guard) return;
    const file = host.guard.ledgerFor(folder).file;
    if (!fs.existsSync(file)) fs.writeFileSync(file, "");
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  });

  reg("damageControl.testCommand", async (given) => {
    const guard = host.guard;
    if (!guard) return vscode.window.showWarningMessage(`Damage Control is not running: ${host.down ?? "starting"}.`);
    const command = typeof given === "string" ? given : await vscode.window.showInputBox({ prompt: "A bash command to test against the rules", placeHolder: "git push --force" });
    if (!command) return;
    // Through the guard's bounded worker: a slow rule is cut off there, never freezes the window.
    const v = await guard.tryCall({ tool: "bash", input: { command } }, guard.storeFor(host.folders()[0]).folder);
    const text = `${v.action.toUpperCase()}: ${command}` + (v.rule ? ` — ${describeRule(v.rule)}` : "") + (v.match ? ` (matched "${v.match.text}")` : "");
    void vscode.window.showInformationMessage(text);
    return v;
  });
}
