// The command-hook launcher: <state>/bin/damage-control-hook, a POSIX sh script that agents'
// command hooks run (VS Code's agent, Copilot CLI, Claude Code's command hook).
//
// Fast path (no Node start): read stdin, find the endpoint guarding $PWD in the registry's
// path-mirrored index (<state>/endpoints/by-path/<folder>/.endpoint, deepest folder first, read
// with shell builtins), POST stdin to
// <url>/hook/<agent> with the token from <state>/token (given to curl on a file descriptor, never
// on its command line), print the body on a 200 with a JSON object, exit 0.
// On ANY failure (no curl, no endpoint, 401, 5xx, no byte for 4 s, timeout, not
// JSON) it runs the Node local decision: <state>/lib/cli.js hook <agent> --local (same rules);
// when that fails too, it prints a deny and exits 2. VS Code fails open on exit 1, non-JSON and
// timeouts, so nothing here may end any other way. Every child is waited for: no process keeps
// stdout open after the script exits.
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
# Damage Control command hook, fast path. Written by Damage Control (rewritten on every activation
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

# The Node local decision from the same rules; its answer passes only as exit 0/2 with a JSON object.
fallback() {
  [ -f "$state/lib/cli.js" ] || deny "the guard is not installed completely ($state/lib/cli.js is missing)"
  [ -x "$node" ] || node=$(command -v node) || deny "no Node.js to decide locally with"
  # A clean environment: the caller's (VS Code's extension host's) must not change how Node runs.
  out=$(printf '%s' "$payload" | env -i HOME="$HOME" PATH="$PATH" LANG="\${LANG:-C.UTF-8}" DAMAGE_CONTROL_STATE_DIR="$state" ELECTRON_RUN_AS_NODE=1 "$node" "$state/lib/cli.js" hook "$agent" --local 2>"$state/last-fallback.log")
  rc=$?
  case $rc in 0|2) case $out in '{'*'}') printf '%s\\n' "$out"; exit $rc ;; esac ;; esac
  deny "the guard could not decide locally (exit $rc)"
}

command -v curl >/dev/null 2>&1 || fallback
# The endpoint guarding $PWD: the deepest folder containing it that has a live registration.
# <state>/endpoints/by-path/<folder>/.endpoint holds "URL PID" (registry.ts): found with shell
# builtins only, so the fast path starts no process but curl.
dir=$PWD
url=
while :; do
  f="$state/endpoints/by-path\${dir%/}/.endpoint"
  if [ -f "$f" ]; then
    u= p=
    { read -r u p || [ -n "$u" ]; } < "$f"
    if [ -n "$u" ] && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then url=$u; break; fi
  fi
  [ "$dir" = / ] && break
  dir=\${dir%/*}
  [ -n "$dir" ] || dir=/
done
[ -n "$url" ] || fallback
case $url in http://127.0.0.1:*|http://localhost:*) ;; *) fallback ;; esac
tok=
{ read -r tok || [ -n "$tok" ]; } < "$state/token" 2>/dev/null
[ -n "$tok" ] || fallback

# --speed-limit/--speed-time: no byte for ~2 s (curl measures it over ~5 s) = a stuck endpoint (a pending ask sends keep-alive
# whitespace); --max-time: the ask timeout + 10 s, inside the hook's own timeout (ask + 15 s).
# The body is a here-document, not a pipe from printf (one process fewer): the shell writes the
# expanded $payload as it is, with no further expansion of what it holds.
out=$(curl -sS -f --noproxy '*' --connect-timeout 2 --max-time ${maxTime} --speed-limit 1 --speed-time 2 \\
  -H 'content-type: application/json' -H 'Expect:' -K /dev/fd/3 --data-binary @- "$url/hook/$agent" 2>/dev/null <<BODY 3<<EOF
$payload
BODY
header = "Authorization: Bearer $tok"
EOF
) || fallback
body=\${out#"\${out%%[![:space:]]*}"}
case $body in '{'*'}') printf '%s\\n' "$body"; exit 0 ;; esac
fallback
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
