// PowerShell's own routes to what the Bash analysis judges as effects (issue 36, family 9): the
// environment dumped or a secret variable printed (`Get-ChildItem Env:`, `$env:OPENAI_API_KEY`,
// `[Environment]::GetEnvironmentVariables()`), a secret sent in a request's URI or body, the
// machine restarted or a service stopped, a REST DELETE to another host. DATA: a table of
// statement shapes → effect, read over each statement of the script.
import { isLoopback, isSecretName } from "../remote/secret-names";
import type { RemoteEffect } from "../shell/types";

type Found = Omit<RemoteEffect, "span" | "program"> & { program: string };

/** Statements (split on `;`, `|`, newlines) whose shape is the effect. */
const SHAPES: { re: RegExp; effect: (m: RegExpExecArray, statement: string) => Found | undefined }[] = [
  // The whole environment: the Env: drive listed, or .NET's table of it.
  { re: /^(Get-ChildItem|gci|dir|ls|Get-Item|gi)\s+(-Path\s+)?Env:\\?\*?\s*$|\[(System\.)?Environment\]::GetEnvironmentVariables\(\s*\)/i, effect: () => ({ effect: "read-secret", target: "secrets", program: "powershell", resource: "the whole environment", via: "the environment listed" }) },
  // One secret variable read through .NET or the Env: drive.
  { re: /\[(System\.)?Environment\]::GetEnvironmentVariable\(\s*['"]([A-Z][A-Z0-9_]*)['"]|^(Get-Content|gc|Get-Item|gi|Get-ChildItem|gci)\s+(-Path\s+)?Env:\\?([A-Z][A-Z0-9_]*)\s*$/i, effect: (m) => secretShown(m[2] ?? m[5]) },
  // A secret variable as the statement's value or printed.
  { re: /^(Write-Output|Write-Host|echo|Write-Information|Out-Host|\$env:[A-Za-z_]\w*\s*$|"[^"]*\$env:)/i, effect: (_m, s) => printedEnv(s) },
  // A request: a secret in the URI or the body goes to that host; a DELETE to another host.
  { re: /^(Invoke-RestMethod|irm|Invoke-WebRequest|iwr)\b/i, effect: (_m, s) => request(s) },
  // The machine and its services.
  { re: /^(Restart-Computer|Stop-Computer)\b/i, effect: () => system("Restart-Computer") },
  { re: /^(Stop-Service|spsv|Suspend-Service)\b|^Set-Service\b.*-StartupType\s+Disabled/i, effect: () => system("Stop-Service") },
  // The firewall switched off: every profile, or the rules reset.
  { re: /^Set-NetFirewallProfile\b.*-Enabled\s+(\$?false|0)\b|^netsh(\.exe)?\s+(advfirewall\s+set\s+\S+\s+state\s+off|advfirewall\s+reset|firewall\s+set\s+opmode\s+(mode=)?disable)\b/i, effect: () => system("the firewall switched off") },
  { re: /^(Clear-EventLog|Remove-EventLog)\b|^wevtutil(\.exe)?\s+(cl|clear-log)\b/i, effect: () => system("the event log cleared") },
  // cmd's `format D:` (the cmdlets Format-Volume and Clear-Disk are asked about by their verb).
  { re: /^format(\.com)?\s+[A-Za-z]:/i, effect: () => ({ effect: "destroy-all", target: "device", program: "powershell", resource: "a disk", via: "a volume formatted or a disk cleared" }) },
];

function secretShown(name: string | undefined): Found | undefined {
  return name && isSecretName(name.toUpperCase()) ? { effect: "read-secret", target: "secrets", program: "powershell", resource: `$env:${name}`, via: "a secret variable printed" } : undefined;
}

function printedEnv(s: string): Found | undefined {
  for (const m of s.matchAll(/\$env:([A-Za-z_]\w*)|%([A-Za-z_]\w*)%/g)) {
    const f = secretShown(m[1] ?? m[2]);
    if (f) return f;
  }
  return undefined;
}

function system(via: string): Found {
  return { effect: "destroy", target: "system", program: "powershell", resource: "", via };
}

function request(s: string): Found | undefined {
  const uri = /-Uri\s+(['"]?)(\S+?)\1(\s|$)/i.exec(s)?.[2] ?? /^\S+\s+(['"]?)(https?:\/\/\S+?)\1(\s|$)/i.exec(s)?.[2] ?? "";
  const host = /^https?:\/\/([^/:?'"]+)/i.exec(uri)?.[1] ?? "";
  const body = /-Body\s+(\S+)/i.exec(s)?.[1] ?? "";
  // The whole environment as the body (`-Body (Get-ChildItem Env: | Out-String)`): every secret in it leaves.
  if (/-Body\s+\(?\s*(Get-ChildItem|gci|dir|ls|Get-Item|gi)\s+(-Path\s+)?Env:|-Body\s+\(?\s*\[(System\.)?Environment\]::GetEnvironmentVariables/i.test(s) && !isLoopback(host)) return { effect: "exfiltrate", target: "remote-host", program: "powershell", resource: host, via: `the whole environment sent in the request to ${host || "another host"}` };
  const secret = [...`${uri} ${body}`.matchAll(/\$env:([A-Za-z_]\w*)/g)].map((m) => m[1]).find((n) => isSecretName(n.toUpperCase()));
  if (secret && !isLoopback(host)) return { effect: "exfiltrate", target: "remote-host", program: "powershell", resource: host, via: `$env:${secret} sent in the request to ${host || "another host"}` };
  if (/-Method\s+['"]?(Delete|Purge)\b/i.test(s) && host && !isLoopback(host) && host.includes(".")) return { effect: "destroy", target: "hosted-service", program: "powershell", resource: uri, via: "a REST DELETE to another host" };
  return undefined;
}

/** The effects of a PowerShell (or cmd) script's statements, by shape. */
export function shapeEffects(script: string): Found[] {
  const out: Found[] = [];
  for (const raw of script.split(/[;\n|]|&&/)) {
    // A nested shell's code is the statement (`cmd /c …`, `pwsh -NoProfile -c '…'`).
    const s = raw.trim().replace(/^(cmd(\.exe)?\s+\/+[ck]\s+)/i, "").replace(/^(pwsh|powershell)(\.exe)?\s+(-(?!c\b|command\b)\w+\s+)*-(c|command)\s+/i, "").replace(/^["']|["']$/g, "").trim();
    for (const shape of SHAPES) {
      const m = shape.re.exec(s);
      const f = m ? shape.effect(m, s) : undefined;
      if (f) out.push(f);
    }
  }
  return out;
}
