// PowerShell cmdlets → what they do to files, as data. Each entry names its parameters (with
// their positions and aliases, as `Get-Help -Full` lists them), which of them are paths and how
// those paths are touched, and the bash command it amounts to, so the bash patterns of the rules
// (`rm -rf`, `cat`…) judge `Remove-Item -Recurse -Force` the same way. Extend it by adding rows.
import type { Access } from "../types";

export type ParamRole =
  /** A path the cmdlet touches with the entry's `access`. */
  | "path"
  /** A path it writes (Copy-Item -Destination, Out-File -FilePath…). */
  | "dest"
  /** A path it reads besides its main access (Start-Process -RedirectStandardInput). */
  | "source"
  /** A switch: takes no value (`-Recurse`, or `-Recurse:$false`). */
  | "switch"
  /** Any other value: data, never a path. */
  | "value"
  /** PowerShell code run by the cmdlet (Invoke-Expression -Command). */
  | "code"
  /** A program to start, with its arguments (Start-Process). */
  | "program"
  | "args";

export interface ParamSpec {
  name: string;
  role: ParamRole;
  position?: number;
  aliases?: string[];
}

export interface CmdletSpec {
  name: string;
  aliases: string[];
  /** How the `path` parameters are touched; undefined when only `dest`/`source` matter. */
  access?: Access;
  /** The `path` access reaches everything below the path when this switch is set (`-Recurse`). */
  recursiveWith?: string;
  /** The `path` access always reaches everything below it (an archive of a folder). */
  alwaysRecursive?: boolean;
  /** Moving or renaming: the `path` is deleted (moved away) and the destination written. */
  moves?: boolean;
  /** Changes the working directory for the statements that follow. */
  changesDirectory?: boolean;
  params: ParamSpec[];
  /** The bash command it amounts to: program and the flags each switch stands for. */
  bash?: { program: string; flags?: Record<string, string> };
}

/** Parameters every cmdlet takes (CommonParameters, plus -WhatIf/-Confirm). */
export const COMMON_PARAMS: ParamSpec[] = [
  { name: "Verbose", role: "switch", aliases: ["vb"] },
  { name: "Debug", role: "switch", aliases: ["db"] },
  { name: "ErrorAction", role: "value", aliases: ["ea"] },
  { name: "WarningAction", role: "value", aliases: ["wa"] },
  { name: "InformationAction", role: "value", aliases: ["infa"] },
  { name: "ProgressAction", role: "value", aliases: ["proga"] },
  { name: "ErrorVariable", role: "value", aliases: ["ev"] },
  { name: "WarningVariable", role: "value", aliases: ["wv"] },
  { name: "InformationVariable", role: "value", aliases: ["iv"] },
  { name: "OutVariable", role: "value", aliases: ["ov"] },
  { name: "OutBuffer", role: "value", aliases: ["ob"] },
  { name: "PipelineVariable", role: "value", aliases: ["pv"] },
  { name: "WhatIf", role: "switch", aliases: ["wi"] },
  { name: "Confirm", role: "switch", aliases: ["cf"] },
];

const pathParams = (extra: ParamSpec[] = []): ParamSpec[] => [
  { name: "Path", role: "path", position: 0, aliases: ["FullName"] },
  { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
  { name: "Filter", role: "value" },
  { name: "Include", role: "value" },
  { name: "Exclude", role: "value" },
  { name: "Force", role: "switch" },
  { name: "Credential", role: "value" },
  ...extra,
];

const contentWriter = (name: string, aliases: string[]): CmdletSpec => ({
  name,
  aliases,
  access: "write",
  params: pathParams([
    { name: "Value", role: "value", position: 1 },
    { name: "PassThru", role: "switch" },
    { name: "NoNewline", role: "switch" },
    { name: "Encoding", role: "value" },
    { name: "AsByteStream", role: "switch" },
    { name: "Stream", role: "value" },
  ]),
});

export const CMDLETS: CmdletSpec[] = [
  {
    name: "Remove-Item",
    aliases: ["rm", "del", "erase", "rd", "ri", "rmdir"],
    access: "delete",
    recursiveWith: "Recurse",
    params: pathParams([
      { name: "Recurse", role: "switch" },
      { name: "Stream", role: "value" },
    ]),
    bash: { program: "rm", flags: { Recurse: "-r", Force: "-f" } },
  },
  {
    name: "Get-Content",
    aliases: ["cat", "gc", "type"],
    access: "read",
    params: pathParams([
      { name: "ReadCount", role: "value" },
      { name: "TotalCount", role: "value", aliases: ["First", "Head"] },
      { name: "Tail", role: "value", aliases: ["Last"] },
      { name: "Delimiter", role: "value" },
      { name: "Wait", role: "switch" },
      { name: "Raw", role: "switch" },
      { name: "Encoding", role: "value" },
      { name: "AsByteStream", role: "switch" },
      { name: "Stream", role: "value" },
    ]),
    bash: { program: "cat" },
  },
  contentWriter("Set-Content", ["sc"]),
  contentWriter("Add-Content", ["ac"]),
  { name: "Clear-Content", aliases: ["clc"], access: "write", params: pathParams([{ name: "Stream", role: "value" }]) },
  {
    name: "Out-File",
    aliases: [],
    access: "write",
    params: [
      { name: "FilePath", role: "path", position: 0, aliases: ["Path"] },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "Encoding", role: "value", position: 1 },
      { name: "Append", role: "switch" },
      { name: "Force", role: "switch" },
      { name: "NoClobber", role: "switch", aliases: ["NoOverwrite"] },
      { name: "Width", role: "value" },
      { name: "NoNewline", role: "switch" },
      { name: "InputObject", role: "value" },
    ],
  },
  {
    name: "Tee-Object",
    aliases: ["tee"],
    access: "write",
    params: [
      { name: "FilePath", role: "path", position: 0, aliases: ["Path"] },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "Append", role: "switch" },
      { name: "Variable", role: "value" },
      { name: "Encoding", role: "value" },
      { name: "InputObject", role: "value" },
    ],
  },
  {
    name: "New-Item",
    aliases: ["ni"],
    access: "write",
    params: pathParams([
      { name: "Name", role: "value" },
      { name: "ItemType", role: "value", aliases: ["Type"] },
      { name: "Value", role: "value", aliases: ["Target"] },
    ]),
  },
  {
    name: "Copy-Item",
    aliases: ["cp", "copy", "cpi"],
    access: "read",
    recursiveWith: "Recurse",
    params: pathParams([
      { name: "Destination", role: "dest", position: 1 },
      { name: "Container", role: "switch" },
      { name: "Recurse", role: "switch" },
      { name: "PassThru", role: "switch" },
      { name: "ToSession", role: "value" },
      { name: "FromSession", role: "value" },
    ]),
    bash: { program: "cp", flags: { Recurse: "-r", Force: "-f" } },
  },
  {
    name: "Move-Item",
    aliases: ["mv", "move", "mi"],
    access: "delete",
    moves: true,
    params: pathParams([
      { name: "Destination", role: "dest", position: 1 },
      { name: "PassThru", role: "switch" },
    ]),
    bash: { program: "mv", flags: { Force: "-f" } },
  },
  {
    name: "Rename-Item",
    aliases: ["ren", "rni"],
    access: "delete",
    moves: true,
    params: [
      { name: "Path", role: "path", position: 0 },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "NewName", role: "dest", position: 1 },
      { name: "Force", role: "switch" },
      { name: "PassThru", role: "switch" },
      { name: "Credential", role: "value" },
    ],
    bash: { program: "mv" },
  },
  {
    name: "Get-ChildItem",
    aliases: ["ls", "dir", "gci"],
    access: "list",
    recursiveWith: "Recurse",
    params: [
      { name: "Path", role: "path", position: 0 },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "Filter", role: "value", position: 1 },
      { name: "Include", role: "value" },
      { name: "Exclude", role: "value" },
      { name: "Recurse", role: "switch" },
      { name: "Depth", role: "value" },
      { name: "Force", role: "switch" },
      { name: "Name", role: "switch" },
      { name: "Attributes", role: "value" },
      { name: "FollowSymlink", role: "switch" },
      { name: "Directory", role: "switch", aliases: ["ad"] },
      { name: "File", role: "switch", aliases: ["af"] },
      { name: "Hidden", role: "switch", aliases: ["ah"] },
      { name: "ReadOnly", role: "switch", aliases: ["ar"] },
      { name: "System", role: "switch", aliases: ["as"] },
    ],
    bash: { program: "ls", flags: { Recurse: "-R" } },
  },
  {
    name: "Select-String",
    aliases: ["sls"],
    access: "read",
    params: [
      { name: "Pattern", role: "value", position: 0 },
      { name: "Path", role: "path", position: 1 },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "InputObject", role: "value" },
      { name: "SimpleMatch", role: "switch" },
      { name: "CaseSensitive", role: "switch" },
      { name: "Quiet", role: "switch" },
      { name: "List", role: "switch" },
      { name: "NoEmphasis", role: "switch" },
      { name: "Include", role: "value" },
      { name: "Exclude", role: "value" },
      { name: "NotMatch", role: "switch" },
      { name: "AllMatches", role: "switch" },
      { name: "Encoding", role: "value" },
      { name: "Context", role: "value" },
      { name: "Raw", role: "switch" },
    ],
  },
  { name: "Import-Csv", aliases: ["ipcsv"], access: "read", params: pathParams([{ name: "Delimiter", role: "value", position: 1 }, { name: "Header", role: "value" }, { name: "Encoding", role: "value" }, { name: "UseCulture", role: "switch" }]) },
  { name: "Get-FileHash", aliases: [], access: "read", params: pathParams([{ name: "Algorithm", role: "value", position: 1 }, { name: "InputStream", role: "value" }]) },
  {
    name: "Expand-Archive",
    aliases: [],
    access: "read",
    params: [
      { name: "Path", role: "path", position: 0 },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "DestinationPath", role: "dest", position: 1 },
      { name: "Force", role: "switch" },
      { name: "PassThru", role: "switch" },
    ],
  },
  {
    name: "Compress-Archive",
    aliases: [],
    access: "read",
    alwaysRecursive: true,
    params: [
      { name: "Path", role: "path", position: 0 },
      { name: "LiteralPath", role: "path", aliases: ["PSPath", "LP"] },
      { name: "DestinationPath", role: "dest", position: 1 },
      { name: "CompressionLevel", role: "value" },
      { name: "Update", role: "switch" },
      { name: "Force", role: "switch" },
      { name: "PassThru", role: "switch" },
    ],
  },
  {
    name: "Set-Location",
    aliases: ["cd", "sl", "chdir"],
    changesDirectory: true,
    params: [
      { name: "Path", role: "value", position: 0 },
      { name: "LiteralPath", role: "value", aliases: ["PSPath", "LP"] },
      { name: "PassThru", role: "switch" },
      { name: "StackName", role: "value" },
    ],
  },
  {
    name: "Push-Location",
    aliases: ["pushd"],
    changesDirectory: true,
    params: [
      { name: "Path", role: "value", position: 0 },
      { name: "LiteralPath", role: "value", aliases: ["PSPath", "LP"] },
      { name: "PassThru", role: "switch" },
      { name: "StackName", role: "value" },
    ],
  },
  { name: "Invoke-Expression", aliases: ["iex"], params: [{ name: "Command", role: "code", position: 0 }] },
  {
    name: "Start-Process",
    aliases: ["saps", "start"],
    params: [
      { name: "FilePath", role: "program", position: 0, aliases: ["PSPath", "Path"] },
      { name: "ArgumentList", role: "args", position: 1, aliases: ["Args"] },
      { name: "Verb", role: "value" },
      { name: "WorkingDirectory", role: "value" },
      { name: "Wait", role: "switch" },
      { name: "NoNewWindow", role: "switch", aliases: ["nnw"] },
      { name: "PassThru", role: "switch" },
      { name: "RedirectStandardOutput", role: "dest", aliases: ["RSO"] },
      { name: "RedirectStandardError", role: "dest", aliases: ["RSE"] },
      { name: "RedirectStandardInput", role: "source", aliases: ["RSI"] },
      { name: "WindowStyle", role: "value" },
      { name: "Credential", role: "value", aliases: ["RunAs"] },
      { name: "LoadUserProfile", role: "switch", aliases: ["Lup"] },
      { name: "UseNewEnvironment", role: "switch" },
      { name: "Environment", role: "value" },
    ],
  },
  ...["Invoke-WebRequest", "Invoke-RestMethod"].map(
    (name): CmdletSpec => ({
      name,
      aliases: name === "Invoke-WebRequest" ? ["iwr", "curl", "wget"] : ["irm"],
      params: [
        { name: "Uri", role: "value", position: 0 },
        { name: "OutFile", role: "dest" },
        { name: "InFile", role: "source" },
        { name: "Method", role: "value" },
        { name: "Body", role: "value" },
        { name: "Headers", role: "value" },
        { name: "ContentType", role: "value" },
        { name: "UseBasicParsing", role: "switch" },
        { name: "UserAgent", role: "value" },
        { name: "TimeoutSec", role: "value" },
        { name: "Credential", role: "value" },
        { name: "Form", role: "value" },
        { name: "SkipCertificateCheck", role: "switch" },
      ],
    }),
  ),
];

const byName = new Map<string, CmdletSpec>();
for (const c of CMDLETS) {
  byName.set(c.name.toLowerCase(), c);
  for (const a of c.aliases) byName.set(a.toLowerCase(), c);
}

/** The cmdlet a name or alias stands for (case-insensitive; `Microsoft.PowerShell.Management\` prefixes dropped). */
export function cmdletFor(name: string): CmdletSpec | undefined {
  return byName.get(name.toLowerCase().replace(/^[a-z.]+\\/, ""));
}

/** Cmdlets that only look at items or write output: no effect on files. */
const HARMLESS = new Set(
  [
    "Test-Path", "Get-Item", "Get-ItemProperty", "Resolve-Path", "Split-Path", "Join-Path", "Get-Location", "Write-Output", "Write-Host",
    "Write-Error", "Write-Warning", "Write-Verbose", "Write-Debug", "Write-Information", "Out-Host", "Out-Null", "Out-String", "Out-Default",
    "Select-Object", "Where-Object", "ForEach-Object", "Sort-Object", "Group-Object", "Measure-Object", "Format-Table", "Format-List",
    "Format-Wide", "Format-Custom", "Format-Hex", "ConvertTo-Json", "ConvertFrom-Json", "Get-Command", "Get-Help", "Get-Process",
    "Get-Service", "Get-Date", "Get-Variable", "Set-Variable", "Clear-Host", "Clear-Variable", "Remove-Variable", "Get-Module",
    "Import-Module", "Remove-Module", "Start-Sleep", "Pop-Location", "Get-Member", "Compare-Object", "New-Object", "Get-Random",
    "Remove-Job", "Get-Job", "Receive-Job", "Wait-Job", "Remove-PSDrive", "Remove-Event", "Remove-PSSession", "Get-Host", "Get-Culture",
    "Invoke-Command", "Get-PSDrive", "Get-Alias", "Get-History", "Get-Error",
  ].map((n) => n.toLowerCase()),
);

export function isHarmlessCmdlet(name: string): boolean {
  return HARMLESS.has(name.toLowerCase());
}

/** Verbs whose unknown cmdlets may destroy state (Remove-Partition, Clear-Disk, Format-Volume…). */
const DESTRUCTIVE_VERBS = new Set(["remove", "clear", "format", "reset", "uninstall", "dismount", "initialize", "unregister", "disable"]);

export function hasDestructiveVerb(name: string): boolean {
  const m = /^([a-z]+)-[a-z0-9]+$/i.exec(name);
  return !!m && DESTRUCTIVE_VERBS.has(m[1].toLowerCase());
}

/** A parameter of `spec` by a name, alias or unambiguous prefix, as PowerShell binds it. */
export function findParam(spec: CmdletSpec, written: string): ParamSpec[] {
  const w = written.toLowerCase();
  const all = [...spec.params, ...COMMON_PARAMS];
  const exact = all.filter((p) => p.name.toLowerCase() === w || p.aliases?.some((a) => a.toLowerCase() === w));
  if (exact.length) return exact;
  // A prefix may be ambiguous (`-f`: -Filter or -Force): every candidate counts, the safe reading.
  return all.filter((p) => p.name.toLowerCase().startsWith(w));
}
