// "Damage Control: Guard VS Code's Agent": the command hook for VS Code's own agent (agent mode
// of the built-in chat) in ~/.copilot/hooks/damage-control.json, which VS Code picks up without a
// reload. On every activation the launcher it runs (<state>/bin/damage-control-hook and its copy
// of dist/cli.js) is rewritten from this version of the extension, so an update never leaves the
// hook pointing into an old, deleted extension folder. Offered once, on the first activation.
import * as path from "node:path";
import * as vscode from "vscode";
import { installCopilot, isOurCopilotFile, uninstallCopilot, userHookFile, vscodeAgentCheck } from "../install/copilot";
import { installLauncher } from "../install/launcher";
import { readSettings } from "./settings";
import * as fs from "node:fs";
import type { VsCodeSandbox } from "./vscode-sandbox";

export const GUARD_VSCODE_AGENT_COMMAND = "damageControl.guardVsCodeAgent";

/** Fires when the hook file was written or removed here, so the panel re-checks the status. */
const changed = new vscode.EventEmitter<void>();
export const onVsCodeAgentChanged = changed.event;
const OFFERED_KEY = "damageControl.vscodeAgentOffered";

/** What only the extension can see: chat.useHooks, the policy, workspace trust. */
export function vscodeAgentStatus(folder?: string) {
  const chat = vscode.workspace.getConfiguration("chat");
  const policy = chat.inspect<boolean>("hooks.allowManagedOnly");
  return vscodeAgentCheck({
    folder,
    useHooks: chat.get<boolean>("useHooks", true) !== false,
    policyBlocks: (policy?.globalValue ?? policy?.defaultValue) === true,
    trusted: vscode.workspace.isTrusted,
  });
}

function refreshLauncher(context: vscode.ExtensionContext): string | undefined {
  try {
    // Desktop VS Code's execPath is Electron: the launcher runs it with ELECTRON_RUN_AS_NODE=1.
    installLauncher({ distDir: path.join(context.extensionPath, "dist"), nodePath: process.execPath, askTimeoutSeconds: readSettings().askTimeoutSeconds });
    // An installed hook file follows the ask timeout (its timeout must outlive an ask).
    if (fs.existsSync(userHookFile()) && isOurCopilotFile(userHookFile())) installCopilot({ scope: "user", askTimeoutSeconds: readSettings().askTimeoutSeconds });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** `sandbox`: VS Code's own sandbox, configured from the rules while our hook is installed (./vscode-sandbox.ts). */
export function registerGuardVsCodeAgent(context: vscode.ExtensionContext, sandbox?: VsCodeSandbox): void {
  // Off the activation path (it reads and compares the shipped CLI): until it has run, the
  // launcher of the previous activation keeps serving, and it falls back to Node on any fault.
  const refresh = setTimeout(() => {
    const problem = refreshLauncher(context);
    if (problem) void vscode.window.showWarningMessage(vscode.l10n.t("Damage Control could not refresh the hook launcher for VS Code's agent: {0}", problem));
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(refresh) });

  // The palette offers Guard or Stop Guarding, whichever applies (package.json when-clauses).
  // (The key is walkthrough-context.ts's too; refreshWalkthrough sets it with the other steps'.)
  const syncContext = () => void vscode.commands.executeCommand("damageControl.refreshWalkthrough");
  context.subscriptions.push(
    changed,
    changed.event(syncContext),
    vscode.commands.registerCommand(GUARD_VSCODE_AGENT_COMMAND, async () => {
      const again = refreshLauncher(context);
      if (again) return void vscode.window.showErrorMessage(vscode.l10n.t("Damage Control: {0}", again));
      const r = installCopilot({ scope: "user", askTimeoutSeconds: readSettings().askTimeoutSeconds });
      await sandbox?.sync();
      changed.fire();
      const status = vscodeAgentStatus(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
      const t = vscode.l10n.t;
      const text =
        status.status === "ok"
          ? r.changed
            ? t("Damage Control now guards VS Code's agent ({0}).", r.file)
            : t("Damage Control already guards VS Code's agent ({0}).", r.file)
          : r.changed
            ? t("Damage Control now guards VS Code's agent ({0}). Note: {1}.", r.file, status.message)
            : t("Damage Control already guards VS Code's agent ({0}). Note: {1}.", r.file, status.message);
      void vscode.window.showInformationMessage(text);
      return r.file;
    }),
    vscode.commands.registerCommand("damageControl.unguardVsCodeAgent", () => {
      const r = uninstallCopilot({ scope: "user" });
      void sandbox?.remove();
      changed.fire();
      void vscode.window.showInformationMessage(r.removed ? vscode.l10n.t("Damage Control removed {0}.", r.file) : vscode.l10n.t("Damage Control: no hook file at {0}.", r.file));
    }),
  );

  // Offered once: the agent most VS Code users have is otherwise unguarded.
  if (!context.globalState.get<boolean>(OFFERED_KEY) && !isOurCopilotFile(userHookFile())) {
    void context.globalState.update(OFFERED_KEY, true);
    const guardItem = vscode.l10n.t("Guard VS Code's Agent");
    void vscode.window
      .showInformationMessage(vscode.l10n.t("Damage Control can also guard VS Code's own agent (Chat in Agent mode): every tool call it makes is checked against your rules."), guardItem, vscode.l10n.t("Not Now"))
      .then((pick) => (pick === guardItem ? vscode.commands.executeCommand(GUARD_VSCODE_AGENT_COMMAND) : undefined));
  }
}
