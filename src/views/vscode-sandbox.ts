// VS Code's agent inside its own sandbox, configured from the rules: chat.agent.sandbox.* in the
// user settings, written when "Guard VS Code's Agent" installs the hook and again on every rules
// change while it is installed; taken out (the user's values restored) when it is removed. Which
// values are ours is kept in the extension's global state. Never turns auto-approval on: see
// vscodeSandboxWant (src/engine/sandbox/agents.ts).
import * as vscode from "vscode";
import { vscodeSandboxWant } from "../engine/sandbox/agents";
import { applyOurs, NO_OURS, type OursRecord, type Want } from "../engine/sandbox/ours";
import { sandboxMode } from "../engine/sandbox/policy";
import { sandboxPolicyFor } from "../core/sandbox/policy-for";
import { isOurCopilotFile, userHookFile } from "../install/copilot";
import type { GuardHost } from "./guard-host";

const OURS_KEY = "damageControl.vscodeSandboxOurs";
/** The user settings the sandbox is written into (top-level keys of settings.json). */
export const VSCODE_SANDBOX_KEYS = [
  "chat.agent.sandbox.enabled",
  "chat.agent.sandbox.allowUnsandboxedCommands",
  "chat.agent.sandbox.allowAutoApprove",
  "chat.agent.sandbox.fileSystem.linux",
  "chat.agent.sandbox.fileSystem.mac",
  "chat.agent.allowedNetworkDomains",
  "chat.agent.deniedNetworkDomains",
] as const;

export class VsCodeSandbox {
  /** One write at a time: a rules change during a write waits for it. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: GuardHost,
  ) {
    host.on("rules", () => this.sync());
    host.on("state", () => this.sync());
  }

  /** Renders for the rules in force when our hook for VS Code's agent is installed. */
  sync(): Promise<void> {
    return this.enqueue(() => {
      const state = this.host.guard?.rulesStates()[0];
      if (!state || !isOurCopilotFile(userHookFile())) return undefined;
      return vscodeSandboxWant(sandboxPolicyFor(state.folder, state.rules), sandboxMode(state.rules));
    });
  }

  /** Takes ours out (the hook was removed). */
  remove(): Promise<void> {
    return this.enqueue(() => ({ lists: [], values: [] }));
  }

  private enqueue(want: () => Want | undefined): Promise<void> {
    this.queue = this.queue.then(() => this.write(want())).catch((e: unknown) => {
      void vscode.window.showWarningMessage(vscode.l10n.t("Damage Control could not configure the sandbox of VS Code's agent: {0}", (e as Error).message));
    });
    return this.queue;
  }

  private async write(want: Want | undefined): Promise<void> {
    if (!want) return;
    const cfg = vscode.workspace.getConfiguration();
    // A VS Code without an agent sandbox (before 1.139) has no such settings to write.
    if (cfg.inspect("chat.agent.sandbox.enabled")?.defaultValue === undefined) return;
    const current: Record<string, unknown> = {};
    for (const k of VSCODE_SANDBOX_KEYS) {
      const v = cfg.inspect(k)?.globalValue;
      if (v !== undefined) current[k] = v;
    }
    const previous = this.context.globalState.get<OursRecord>(OURS_KEY) ?? NO_OURS;
    const { settings, ours } = applyOurs(current, want, previous);
    for (const k of VSCODE_SANDBOX_KEYS) {
      if (JSON.stringify(settings[k]) !== JSON.stringify(current[k])) await cfg.update(k, settings[k], vscode.ConfigurationTarget.Global);
    }
    await this.context.globalState.update(OURS_KEY, ours);
  }
}

