// What each agent's own sandbox is told, from one SandboxPolicy: the lists and switches written
// into its settings (docs/sandbox.md lists them). `off`: nothing of ours.
import type { SandboxMode, SandboxPolicy } from "./policy-types";
import type { Want } from "./ours";

const paths = (l: { path: string }[]) => l.map((p) => p.path);

/**
 * Claude Code's `sandbox` settings. Absolute paths (a relative one resolves against the settings
 * file's folder). `allowUnsandboxedCommands: false`: no call leaves the sandbox (the hook refuses
 * `dangerouslyDisableSandbox` too). `failIfUnavailable` only under `required`: under `auto` a
 * machine without bubblewrap runs as before, and doctor says so. Bash approvals stay as they are:
 * Claude Code's `autoAllowBashIfSandboxed` defaults to true (its settings reference), so turning the
 * sandbox on would approve every sandboxed Bash call the user used to be asked about; we write
 * `false` where the user set nothing (their own choice stands).
 */
export function claudeSandboxWant(policy: SandboxPolicy, mode: SandboxMode): Want {
  if (mode === "off") return { lists: [], values: [] };
  const net = policy.network;
  return {
    lists: [
      { at: ["sandbox", "filesystem", "denyRead"], values: paths(policy.denyRead) },
      { at: ["sandbox", "filesystem", "denyWrite"], values: paths(policy.denyWrite) },
      { at: ["sandbox", "filesystem", "allowWrite"], values: policy.allowWrite },
      ...(net ? [{ at: ["sandbox", "network", "allowedDomains"], values: net.allowedDomains }] : []),
      ...(net?.deniedDomains.length ? [{ at: ["sandbox", "network", "deniedDomains"], values: net.deniedDomains }] : []),
    ],
    values: [
      { at: ["sandbox", "enabled"], value: true },
      { at: ["sandbox", "failIfUnavailable"], value: mode === "required" },
      { at: ["sandbox", "allowUnsandboxedCommands"], value: false },
      { at: ["sandbox", "autoAllowBashIfSandboxed"], value: false, ifAbsent: true },
    ],
  };
}

/**
 * VS Code's agent (`chat.agent.sandbox.*`, user settings). Measured in code-server 4.139.1 (VS Code
 * 1.139.1): with its sandbox enabled, VS Code runs sandboxed terminal commands without its own
 * confirmation, whatever `allowAutoApprove` and `chat.tools.global.autoApprove` say. Turning it on
 * would change what the user is asked, so `auto` writes the lists (they apply once the user turns
 * the sandbox on) and never `enabled`; `required` — a choice to sandbox every command — turns it
 * on. `allowAutoApprove: false` is written only where the user set nothing.
 */
export function vscodeSandboxWant(policy: SandboxPolicy, mode: SandboxMode): Want {
  if (mode === "off") return { lists: [], values: [] };
  const fsFor = (os: string) => [
    { at: [`chat.agent.sandbox.fileSystem.${os}`, "denyRead"], values: paths(policy.denyRead) },
    { at: [`chat.agent.sandbox.fileSystem.${os}`, "denyWrite"], values: paths(policy.denyWrite) },
    { at: [`chat.agent.sandbox.fileSystem.${os}`, "allowWrite"], values: policy.allowWrite },
  ];
  return {
    lists: [...fsFor("linux"), ...fsFor("mac"), ...(policy.network ? [{ at: ["chat.agent.allowedNetworkDomains"], values: policy.network.allowedDomains }, { at: ["chat.agent.deniedNetworkDomains"], values: policy.network.deniedDomains }] : [])],
    values: [
      ...(mode === "required" ? [{ at: ["chat.agent.sandbox.enabled"], value: true }] : []),
      { at: ["chat.agent.sandbox.allowUnsandboxedCommands"], value: false },
      { at: ["chat.agent.sandbox.allowAutoApprove"], value: false, ifAbsent: true },
    ],
  };
}
