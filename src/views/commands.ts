// The commands of the "Damage Control" category.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { DEFAULT_RULES_TEXT } from "../engine/rules/defaults";
import { preferredPort } from "../core/registry";
import { detectClaudeVersion, installClaude, uninstallClaude } from "../install/claude";
import { installPi, uninstallPi } from "../install/pi";
import { launcherPaths } from "../install/launcher";
import { PI_EXTENSION_BUNDLE } from "../core/build-info";
import { loadOrCreateToken } from "../core/token";
import type { GuardHost } from "./guard-host";
import type { PanelView } from "./panel/panel-view";
import { registerAuditView } from "./audit-view";
import { pickAndRestore } from "./restore";

export function registerCommands(context: vscode.ExtensionContext, host: GuardHost, panel: PanelView): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  /** The folder a command acts on: the given one, the only one, or the user's pick. */
  async function pickFolder(given?: unknown): Promise<string | undefined> {
    if (typeof given === "string") return given;
    const folders = host.folders();
    if (folders.length <= 1) return folders[0];
    const pick = await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t("Which folder?") });
    return pick?.uri.fsPath;
  }

  function rulesFileOf(folder: string): string {
    return host.guard?.storeFor(folder).file ?? path.join(folder, ".pi/damage-control-rules.yaml");
  }

  /** Writing agent configuration needs a trusted workspace; guarding does not. */
  function requireTrust(): boolean {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window.showWarningMessage(vscode.l10n.t("Damage Control keeps guarding this untrusted workspace, but writes no agent configuration into it. Trust the workspace to install hooks."));
    return false;
  }

  reg("damageControl.restore", () => pickAndRestore(host.folders()));

  reg("damageControl.openRules", async (given) => {
    const folder = await pickFolder(given);
    if (!folder) return;
    const file = rulesFileOf(folder);
    if (!fs.existsSync(file)) {
      const createItem = vscode.l10n.t("Create from Defaults");
      const create = await vscode.window.showInformationMessage(vscode.l10n.t("{0} does not exist: the embedded default rules are in force.", file), createItem);
      if (create !== createItem) return;
      await vscode.commands.executeCommand("damageControl.createRules", folder);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file));
  });

  reg("damageControl.createRules", async (given) => {
    const folder = await pickFolder(given);
    if (!folder) return;
    const file = rulesFileOf(folder);
    // Either way it answers: the file opens beside (the walkthrough keeps its place) and a toast says which.
    if (fs.existsSync(file)) {
      void vscode.window.showInformationMessage(vscode.l10n.t("This folder already has its rules file, {0}: opened it. Its rules are in force.", file));
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, DEFAULT_RULES_TEXT);
      void vscode.window.showInformationMessage(vscode.l10n.t("Created {0} from the default rules: they are in force now, and yours to change.", file));
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.Beside });
    void vscode.commands.executeCommand("damageControl.refreshWalkthrough");
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
    // Old builds' command hook: the stable launcher the extension refreshes on activation
    // (src/install/launcher.ts), not a path into this versioned extension folder.
    const hookCommand = `'${launcherPaths().sh.replace(/'/g, `'\\''`)}' claude`;
    const version = await detectClaudeVersion();
    // The token goes into the HTTP hook's header: Claude Code started from its own panel or an
    // external terminal has no DAMAGE_CONTROL_TOKEN in its environment.
    const r = installClaude({ folder, url, hookCommand, version: version ?? "", token: loadOrCreateToken() });
    // One whole sentence per case (a translator sees each sentence, never glued fragments).
    const t = vscode.l10n.t;
    const text =
      r.mode === "http"
        ? r.version
          ? r.changed
            ? t('Damage Control: installed HTTP hooks (onFailure "block") to {0} in {1} for Claude Code {2}.', url, r.file, r.version)
            : t('Damage Control: already installed HTTP hooks (onFailure "block") to {0} in {1} for Claude Code {2}.', url, r.file, r.version)
          : r.changed
            ? t('Damage Control: installed HTTP hooks (onFailure "block") to {0} in {1}.', url, r.file)
            : t('Damage Control: already installed HTTP hooks (onFailure "block") to {0} in {1}.', url, r.file)
        : r.version
          ? r.changed
            ? t("Damage Control: installed command hooks (Claude Code {0} ignores onFailure) in {1} for Claude Code {0}.", r.version, r.file)
            : t("Damage Control: already installed command hooks (Claude Code {0} ignores onFailure) in {1} for Claude Code {0}.", r.version, r.file)
          : r.changed
            ? t("Damage Control: installed command hooks in {0}.", r.file)
            : t("Damage Control: already installed command hooks in {0}.", r.file);
    void vscode.window.showInformationMessage(text);
    void vscode.commands.executeCommand("damageControl.refreshWalkthrough");
  });

  reg("damageControl.installPiExtension", () => {
    if (!requireTrust()) return;
    const r = installPi(path.join(context.extensionPath, "dist", PI_EXTENSION_BUNDLE));
    void vscode.commands.executeCommand("damageControl.refreshWalkthrough");
    void vscode.window.showInformationMessage(r.changed ? vscode.l10n.t("Damage Control: pi extension installed at {0}.", r.file) : vscode.l10n.t("Damage Control: pi extension already installed at {0}.", r.file));
  });

  reg("damageControl.uninstallHooks", async (given) => {
    if (!requireTrust()) return;
    const folder = await pickFolder(given);
    const removed: string[] = [];
    if (folder) {
      const c = uninstallClaude(folder);
      if (c.removed) removed.push(c.removed === 1 ? vscode.l10n.t("1 Claude Code hook from {0}", c.file) : vscode.l10n.t("{0} Claude Code hooks from {1}", c.removed, c.file));
    }
    const p = uninstallPi();
    if (p.removed) removed.push(vscode.l10n.t("the pi extension {0}", p.file));
    void vscode.window.showInformationMessage(
      removed.length === 2
        ? vscode.l10n.t("Damage Control removed {0} and {1}.", removed[0], removed[1])
        : removed.length === 1
          ? vscode.l10n.t("Damage Control removed {0}.", removed[0])
          : vscode.l10n.t("Damage Control: nothing was installed."),
    );
  });

  registerAuditView(context, host, pickFolder);

  reg("damageControl.testCommand", async (given) => {
    const guard = host.guard;
    if (!guard) return vscode.window.showWarningMessage(vscode.l10n.t("Damage Control is not running: {0}.", host.down ?? vscode.l10n.t("starting")));
    const command = typeof given === "string" ? given : await vscode.window.showInputBox({ prompt: vscode.l10n.t("A bash command to test against the rules"), placeHolder: "git push --force" });
    if (!command) return;
    // Through the guard's bounded worker: a slow rule is cut off there, never freezes the window.
    const v = await guard.tryCall({ tool: "bash", input: { command } }, guard.storeFor(host.folders()[0]).folder);
    // Shown where the panel's own Try a command shows it: the verdict, the rule's reason and the
    // matched part (issue 38: a truncated info toast with an ⓘ for a BLOCK said too little).
    await vscode.commands.executeCommand("damageControl.showPanel");
    panel.showTry(command, v);
    return v;
  });
}
