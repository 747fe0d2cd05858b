// The command-hook launcher: <state>/bin/damage-control-hook, a POSIX sh script that agents'
// command hooks run (VS Code's agent, Copilot CLI, Claude Code's command hook).
//
// It reads stdin with shell builtins, tells VS Code's agent from Copilot CLI, and runs the Node
// hook (<state>/lib/cli.js hook <agent>): that finds the endpoint guarding $PWD in the registry,
// trusts it only when the process listening on its port is one the user started
// (src/core/endpoint-trust.ts), asks it, and otherwise decides locally with the same rules. When
// that fails too, the launcher prints a deny and exits 2. VS Code fails open on exit 1, non-JSON
// and timeouts, so nothing here may end any other way. Every child is waited for: no process
// keeps stdout open after the script exits.
//
// Builds before this one had a fast path here (sh + curl to the URL in
// <state>/endpoints/by-path/<folder>/.endpoint) that trusted that file without checking the
// process: a script of the agent's that wrote it while the user's endpoint was down was asked in
// its place. Checking the listener and its provenance in sh costs more processes than Node
// (measured: docs/self-protection.md), so the launcher no longer asks an endpoint itself.
//
// The path is stable: the extension rewrites the script and its copy of the CLI on every
// activation, so an update of the extension (a new versioned folder) never breaks a hook file.
import * as fs from "node:fs";
import * as path from "node:path";
import { ensurePrivateDir, userStateDir } from "../core/state-dir";
import { PRODUCT_MARK } from "../engine/self/table";

export const LAUNCHER_NAME = "damage-control-hook";

export interface LauncherPaths {
  /** <state>/bin/damage-control-hook */
  sh: string;
  /** <state>/bin/damage-control-hook.ps1 (Windows; untested on these machines) */
  ps1: string;
  /** <state>/lib: cli.js and decider-worker.js, copied from the shipped dist/ */
  lib: string;
}

export function launcherPaths(stateDir = userStateDir()): LauncherPaths {
  return {
    sh: path.join(stateDir, "bin", LAUNCHER_NAME),
    ps1: path.join(stateDir, "bin", `${LAUNCHER_NAME}.ps1`),
    lib: path.join(stateDir, "lib"),
  };
}

/** The launcher as a hook command for a repository file: no machine path, resolved like userStateDir(). */
export const PORTABLE_LAUNCHER = '"${DAMAGE_CONTROL_STATE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/damage-control}/bin/damage-control-hook"';
export const PORTABLE_LAUNCHER_PS1 = '& "$(if ($env:DAMAGE_CONTROL_STATE_DIR) { $env:DAMAGE_CONTROL_STATE_DIR } else { Join-Path $env:LOCALAPPDATA damage-control })\\bin\\damage-control-hook.ps1"';

export interface LauncherOptions {
  stateDir?: string;
  /** Folder holding the shipped cli.js and decider-worker.js (the extension's or the CLI's dist/). */
  distDir: string;
  /** The Node that runs the fallback (VS Code: its Electron with ELECTRON_RUN_AS_NODE=1). */
  nodePath?: string;
  /** The ask timeout: curl waits for it plus a margin, the hook's own timeout is it + 15 s. */
  askTimeoutSeconds?: number;
}

export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The sh script. Embeds the state dir and the Node path (both this machine's; the script is never committed). */
export function launcherScript(o: { stateDir: string; nodePath: string; askTimeoutSeconds: number }): string {
  const maxTime = Math.max(1, Math.round(o.askTimeoutSeconds)) + 10;
  return `#!/bin/sh
# Damage Control command hook. Written by Damage Control (rewritten on every activation
# of the extension and by \`damage-control install\`): do not edit. Usage: ${LAUNCHER_NAME} AGENT
# (stdin: the agent's hook input). Prints the answer JSON; exit 0, or exit 2 to refuse.
# ${PRODUCT_MARK} (this file is the product's own program: the guard knows it by this line)
agent=\${1:-copilot}
state=${shQuote(o.stateDir)}
node=${shQuote(o.nodePath)}

# The last resort: a refusal in the shapes VS Code, Copilot CLI and Claude Code honour (Cline: its
# own), and exit 2.
deny() {
  r="Blocked by Damage Control: $1. Do not work around this; report it to the user."
  # Cline reads only its own JSON keys, whatever the exit code: anything else RUNS the call. A
  # fixed text (the reason may hold a path, which could break the JSON), the whole reason on stderr.
  if [ "$agent" = cline ]; then
    printf '%s\\n' '{"cancel":true,"errorMessage":"Blocked by Damage Control: the guard could not decide. Do not work around this; report it to the user."}'
    printf '%s\\n' "$r" >&2
    exit 2
  fi
  printf '{"permissionDecision":"deny","permissionDecisionReason":"%s","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}\\n' "$r" "$r"
  printf '%s\\n' "$r" >&2
  exit 2
}

# The input is read with the shell's own read, not cat: the agents send one line of JSON, and a
# process start costs ~2 ms here against ~0.4 µs a byte for read (a 100 KB Write: ~40 ms, beside
# the minutes a model takes to write it). Lines after the first (pretty-printed input) go to cat.
payload= more=
if IFS= read -r payload && IFS= read -r more; then
  rest=$(cat) || deny "the hook input could not be read"
  payload="$payload
$more
$rest"
elif [ -n "$more" ]; then
  payload="$payload
$more"
fi
# hook copilot: VS Code's agent and Copilot CLI share the hook file; VS Code's input is snake_case.
if [ "$agent" = copilot ]; then
  # The same rule as copilotCaller (src/engine/agents/copilot.ts): Copilot CLI's own input has
  # toolName and no hook_event_name; anything else, unreadable input included, is VS Code's.
  case $payload in *'"hook_event_name"'*|*'"tool_name"'*) agent=vscode ;; *'"toolName"'*|*'"toolArgs"'*) agent=copilot-cli ;; *) agent=vscode ;; esac
fi

# The Node hook: the endpoint guarding $PWD when its process is trusted, else the local decision
# from the same rules; its answer passes only as exit 0/2 with a JSON object.
decide() {
  [ -f "$state/lib/cli.js" ] || deny "the guard is not installed completely ($state/lib/cli.js is missing)"
  [ -x "$node" ] || node=$(command -v node) || deny "no Node.js to decide locally with"
  # A clean environment: the caller's (VS Code's extension host's) must not change how Node runs.
  out=$(printf '%s' "$payload" | env -i HOME="$HOME" PATH="$PATH" LANG="\${LANG:-C.UTF-8}" DAMAGE_CONTROL_STATE_DIR="$state" ELECTRON_RUN_AS_NODE=1 "$node" "$state/lib/cli.js" hook "$agent" --timeout ${maxTime} 2>"$state/last-hook.log")
  rc=$?
  case $rc in 0|2) case $out in '{'*'}') printf '%s\\n' "$out"; exit $rc ;; esac ;; esac
  deny "the guard could not decide (exit $rc)"
}

# The endpoint is found, checked and asked by the Node hook (no --local), never here: the registry
# is in the user's state folder, which the agent's own code can write, and trusting an entry needs
# the process listening on its port and where that process comes from (src/core/endpoint-trust.ts),
# which sh cannot read without starting as many processes as Node costs (docs/self-protection.md).
decide
`;
}

/** The Windows variant (PowerShell). Written for completeness; NOT exercised by any test here. */
export function launcherPs1(o: { stateDir: string; nodePath: string; askTimeoutSeconds: number }): string {
  const maxTime = Math.max(1, Math.round(o.askTimeoutSeconds)) + 10;
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  return `# Damage Control command hook (Windows). Written by Damage Control: do not edit. UNTESTED.
param([string]$Agent = "copilot")
$ErrorActionPreference = "Stop"
$state = ${q(o.stateDir)}
$node = ${q(o.nodePath)}
function Deny([string]$why) {
  $r = "Blocked by Damage Control: $why. Do not work around this; report it to the user."
  $o = @{ permissionDecision = "deny"; permissionDecisionReason = $r; hookSpecificOutput = @{ hookEventName = "PreToolUse"; permissionDecision = "deny"; permissionDecisionReason = $r } }
  [Console]::Out.WriteLine(($o | ConvertTo-Json -Compress -Depth 4)); [Console]::Error.WriteLine($r); exit 2
}
try { $payload = [Console]::In.ReadToEnd() } catch { Deny "the hook input could not be read" }
function Fallback {
  try {
    $env:ELECTRON_RUN_AS_NODE = "1"
    $out = $payload | & $node (Join-Path $state "lib\\cli.js") hook $Agent --local 2>$null
    $rc = $LASTEXITCODE
    $text = ($out -join "\`n").Trim()
    if (($rc -eq 0 -or $rc -eq 2) -and $text.StartsWith("{")) { [Console]::Out.WriteLine($text); exit $rc }
  } catch { }
  Deny "the guard could not decide locally"
}
try {
  $sha = [System.Security.Cryptography.SHA256]::Create()
  $dir = (Get-Location).Path
  $reg = $null
  while ($dir) {
    $hex = -join ($sha.ComputeHash([Text.Encoding]::UTF8.GetBytes($dir)) | ForEach-Object { $_.ToString("x2") })
    $f = Join-Path $state ("endpoints\\" + $hex.Substring(0, 20) + ".json")
    if (Test-Path $f) {
      $r = Get-Content $f -Raw | ConvertFrom-Json
      if ($r.active -and (Get-Process -Id $r.pid -ErrorAction SilentlyContinue)) { $reg = $r; break }
    }
    $parent = Split-Path $dir -Parent
    if (-not $parent -or $parent -eq $dir) { break }
    $dir = $parent
  }
  if (-not $reg) { Fallback }
  $tok = (Get-Content (Join-Path $state "token") -Raw).Trim()
  $resp = Invoke-WebRequest -UseBasicParsing -Method Post -Uri ($reg.url + "/hook/" + $Agent) -Body $payload -ContentType "application/json" -Headers @{ Authorization = "Bearer $tok" } -TimeoutSec ${maxTime}
  $body = $resp.Content.Trim()
  if ($resp.StatusCode -eq 200 -and $body.StartsWith("{")) { [Console]::Out.WriteLine($body); exit 0 }
} catch { }
Fallback
`;
}

export interface LauncherInstall extends LauncherPaths {
  changed: boolean;
}

/** Writes (or refreshes) the launcher and its copy of the CLI. Idempotent. */
export function installLauncher(o: LauncherOptions): LauncherInstall {
  const stateDir = o.stateDir ?? userStateDir();
  const p = launcherPaths(stateDir);
  ensurePrivateDir(stateDir);
  ensurePrivateDir(path.dirname(p.sh));
  ensurePrivateDir(p.lib);
  const opts = { stateDir, nodePath: o.nodePath ?? process.execPath, askTimeoutSeconds: o.askTimeoutSeconds ?? 30 };
  let changed = false;
  for (const f of ["cli.js", "decider-worker.js"]) {
    const from = path.join(o.distDir, f);
    if (!fs.existsSync(from)) throw new Error(`${from} is missing: the launcher needs the shipped ${f}`);
    changed = copyAtomic(from, path.join(p.lib, f)) || changed;
  }
  changed = writeAtomic(p.sh, Buffer.from(launcherScript(opts)), 0o755) || changed;
  changed = writeAtomic(p.ps1, Buffer.from(launcherPs1(opts)), 0o644) || changed;
  return { ...p, changed };
}

/** Replaces `to` by a copy of `from` in one rename, so a hook running meanwhile never reads half a file. */
function copyAtomic(from: string, to: string): boolean {
  return writeAtomic(to, fs.readFileSync(from), 0o644);
}

/** sh reads a script as it runs it: a rewrite must never change the file under a running hook. */
function writeAtomic(to: string, data: Buffer, mode: number): boolean {
  try {
    if (fs.readFileSync(to).equals(data)) return false;
  } catch {
    /* new */
  }
  const tmp = `${to}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, to);
  return true;
}
