// Can this machine run a shell command in a sandbox? bubblewrap on PATH and allowed to make user
// namespaces (Ubuntu 24.04+ refuses them without an AppArmor profile), plus what Claude Code's and
// VS Code's sandboxes also need on Linux (socat for the network proxy, ripgrep). Asked once per
// process and PATH: the answer changes only when someone installs something.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { findOnPath } from "./availability";

export interface SandboxMachine {
  /** A command can be run in bubblewrap here. */
  bwrap: boolean;
  /** Claude Code's and VS Code's sandboxes can start (bwrap + socat + rg). */
  agentSandboxes: boolean;
  /** What is missing or refused, in words. */
  problems: string[];
  /** The command that fixes it, when there is one. */
  fix?: string;
  platform: NodeJS.Platform;
}

const cache = new Map<string, SandboxMachine>();

export function sandboxMachine(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): SandboxMachine {
  const key = `${platform}\0${env.PATH ?? ""}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const m = probe(env, platform);
  cache.set(key, m);
  return m;
}

function probe(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): SandboxMachine {
  if (platform === "darwin") {
    // Seatbelt ships with macOS; nothing to install.
    const ok = fs.existsSync("/usr/bin/sandbox-exec");
    return { bwrap: false, agentSandboxes: ok, problems: ok ? [] : ["sandbox-exec is missing"], platform };
  }
  if (platform !== "linux") return { bwrap: false, agentSandboxes: false, problems: [`no kernel sandbox on ${platform} (Windows: commands run as today)`], platform };
  const problems: string[] = [];
  const missing: string[] = [];
  const bwrap = findOnPath("bwrap", env.PATH);
  let bwrapWorks = false;
  if (!bwrap) {
    problems.push("bubblewrap (bwrap) is not installed");
    missing.push("bubblewrap");
  } else {
    const r = spawnSync(bwrap, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-user", "--", "/bin/true"], { timeout: 5000, encoding: "utf8", env });
    bwrapWorks = r.status === 0;
    if (!bwrapWorks) problems.push(`bubblewrap cannot create a user namespace here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split("\n")[0]}): on Ubuntu 24.04+ allow it with an AppArmor profile for bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0`);
  }
  for (const [bin, pkg] of [["socat", "socat"], ["rg", "ripgrep"]] as const) {
    if (!findOnPath(bin, env.PATH)) {
      problems.push(`${bin} is not installed (Claude Code's and VS Code's sandboxes need it)`);
      missing.push(pkg);
    }
  }
  return { bwrap: bwrapWorks, agentSandboxes: bwrapWorks && missing.length === 0, problems, ...(missing.length && { fix: `sudo apt-get install ${missing.join(" ")}` }), platform };
}
