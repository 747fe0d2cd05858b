// `damage-control install codex` / `uninstall codex`: our PreToolUse hook in Codex CLI's user
// config, ~/.codex/config.toml ($CODEX_HOME/config.toml), as one delimited block.
//
// Why the user config and not <project>/.codex/: Codex runs a project layer only for a folder the
// user config marks trusted, and runs ANY unmanaged hook only when the user config holds
// `[hooks.state."<source>:pre_tool_use:<group>:<handler>"] trusted_hash = "sha256:…"` matching the
// hook as written (otherwise it is skipped without a word, measured on 0.171.0). Both the hook and
// its trust entry therefore go in the user config; the hook command finds the endpoint guarding the
// call's cwd, so one user-level hook guards every folder.
//
// TOML without a TOML library (none is an allowed dependency): we never parse or rewrite the
// user's TOML. We append one block between marker comments at the end of the file, and remove
// exactly that block. What makes this safe:
//   - the block starts with a table header, so none of its keys can land in the user's last table,
//     and it sits at the end, so none of the user's keys can land in ours;
//   - `[[hooks.PreToolUse]]` may be repeated anywhere in TOML (array of tables), so the user's own
//     groups stay valid; our group index is the count of their groups, which the trust key needs;
//   - we refuse (and say why) when the file defines hooks in a form our header would collide with
//     (`PreToolUse = [...]`, an inline `hooks = {…}`), or already has a state table for our key.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeIfChanged } from "./json-file";

export const CODEX_BEGIN = "# >>> damage-control: PreToolUse hook (managed by `damage-control install codex`; `uninstall codex` removes this block) >>>";
export const CODEX_END = "# <<< damage-control <<<";
/** Seconds Codex waits for the hook; the hook answers a refusal before this (its own deadline). */
export const CODEX_HOOK_TIMEOUT = 60;

export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(env.HOME || os.homedir(), ".codex");
}

export function codexConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(codexHome(env), "config.toml");
}

export class CodexConfigError extends Error {}

/** The comment line recording how many newlines install put before the block (so uninstall restores the file exactly). */
const SEP_LINE = /^# \(Damage Control added (\d) newline\(s\) before this block\)$/m;

/** The user's text with our block (and the newlines we put before it) cut out; the block, if any. */
export function splitOurBlock(text: string): { user: string; block?: string } {
  const start = text.indexOf(CODEX_BEGIN);
  if (start < 0) return { user: text };
  const endAt = text.indexOf(CODEX_END, start);
  if (endAt < 0) throw new CodexConfigError(`the Damage Control block in the Codex config has its start marker but no end marker (${CODEX_END}): fix or remove it by hand`);
  let end = endAt + CODEX_END.length;
  if (text[end] === "\n") end++;
  const block = text.slice(start, end);
  let from = start;
  const added = Number(SEP_LINE.exec(block)?.[1] ?? "0");
  for (let i = 0; i < added && from > 0 && text[from - 1] === "\n"; i++) from--;
  return { user: text.slice(0, from) + text.slice(end), block };
}

/** How many `[[hooks.<event>]]` groups the user's own TOML has (header lines, comments aside). */
export function countGroups(userToml: string, event: "PreToolUse" | "PostToolUse"): number {
  const header = new RegExp(`^\\s*\\[\\[\\s*hooks\\s*\\.\\s*(${event}|"${event}")\\s*\\]\\]\\s*(#.*)?$`);
  return userToml.split("\n").filter((l) => header.test(l)).length;
}

/** How many `[[hooks.PreToolUse]]` groups the user's own TOML has (header lines, comments aside). */
export function countPreToolUseGroups(userToml: string): number {
  return countGroups(userToml, "PreToolUse");
}

/** Forms of the user's TOML our block's headers would make invalid. */
export function conflicts(userToml: string, stateKey: string, postStateKey?: string): string | undefined {
  const lines = userToml.split("\n");
  if (lines.some((l) => /^\s*hooks\s*=/.test(l))) return "it defines `hooks = …` inline";
  if (lines.some((l) => /^\s*(hooks\s*\.\s*)?PreToolUse\s*=/.test(l))) return "it defines `PreToolUse = [...]` as a static array";
  if (lines.some((l) => /^\s*(hooks\s*\.\s*)?PostToolUse\s*=/.test(l))) return "it defines `PostToolUse = [...]` as a static array";
  if (lines.some((l) => /^\s*(hooks\s*\.\s*)?state\s*=/.test(l))) return "it defines `hooks.state = …` inline";
  for (const key of [stateKey, postStateKey]) if (key && userToml.includes(key)) return `it already has a hooks.state entry for ${key}`;
  return undefined;
}

/** TOML basic string. */
export function tomlString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

/** Keys sorted at every level, compact: Codex's canonical JSON for hook identities. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

/**
 * Codex's trust hash of a PreToolUse group with one command handler and no matcher: sha256 of the
 * canonical JSON of its normalized identity (codex-rs hooks discovery `hook_hash`; unset fields are
 * absent, `async` is false, `timeout` is always written).
 */
export function codexHookHash(command: string, timeoutSec: number, event: CodexEvent = "pre_tool_use"): string {
  const identity = { event_name: event, hooks: [{ async: false, command, timeout: Math.max(1, timeoutSec), type: "command" }] };
  return `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
}

export type CodexEvent = "pre_tool_use" | "post_tool_use";

export function stateKeyFor(configFile: string, group: number, event: CodexEvent = "pre_tool_use"): string {
  return `${configFile}:${event}:${group}:0`;
}

/** One command-hook group of ours and the trust entry Codex needs before it runs it. */
function hookGroup(command: string, configFile: string, event: "PreToolUse" | "PostToolUse", group: number): string[] {
  const id: CodexEvent = event === "PreToolUse" ? "pre_tool_use" : "post_tool_use";
  return [
    `[[hooks.${event}]]`,
    "",
    `[[hooks.${event}.hooks]]`,
    'type = "command"',
    `command = ${tomlString(command)}`,
    `timeout = ${CODEX_HOOK_TIMEOUT}`,
    "",
    "# Codex runs an unmanaged hook only when its definition is trusted: this is that trust, for this hook only.",
    `[hooks.state.${tomlString(stateKeyFor(configFile, group, id))}]`,
    "enabled = true",
    `trusted_hash = ${tomlString(codexHookHash(command, CODEX_HOOK_TIMEOUT, id))}`,
  ];
}

/**
 * `postGroup`: the index of our PostToolUse group (the count of the user's own). The PostToolUse
 * hook (measured 0.171.0: it gets the command as it ran and its output) lets the guard read what the
 * kernel refused inside our sandbox; its answer is always no opinion (docs/sandbox.md).
 */
export function renderBlock(command: string, configFile: string, group: number, sep = 0, postGroup = 0): string {
  return [
    CODEX_BEGIN,
    ...(sep > 0 ? [`# (Damage Control added ${sep} newline(s) before this block)`] : []),
    "# No matcher: every tool call (Bash, apply_patch, MCP tools) is put to Damage Control.",
    ...hookGroup(command, configFile, "PreToolUse", group),
    "",
    "# After a shell call: what the kernel refused inside the sandbox is shown in the feed (never refuses).",
    ...hookGroup(command, configFile, "PostToolUse", postGroup),
    CODEX_END,
    "",
  ].join("\n");
}

export interface CodexInstallResult {
  file: string;
  changed: boolean;
  group: number;
}

/** The new file text: the user's TOML untouched, our block (re)appended at the end. */
export function withOurBlock(text: string, command: string, configFile: string): { text: string; group: number } {
  const { user } = splitOurBlock(text);
  const group = countPreToolUseGroups(user);
  const postGroup = countGroups(user, "PostToolUse");
  const why = conflicts(user, stateKeyFor(configFile, group), stateKeyFor(configFile, postGroup, "post_tool_use"));
  if (why) throw new CodexConfigError(`cannot add the Damage Control hook to ${configFile}: ${why}. Add it by hand (see docs/agents-more.md) or change that entry to the [[hooks.PreToolUse]] table form`);
  const sep = user === "" ? "" : user.endsWith("\n\n") ? "" : user.endsWith("\n") ? "\n" : "\n\n";
  return { text: user + sep + renderBlock(command, configFile, group, sep.length, postGroup), group };
}

export function installCodex(command: string, env: NodeJS.ProcessEnv = process.env): CodexInstallResult {
  const file = codexConfigFile(env);
  const text = readText(file);
  const next = withOurBlock(text, command, file);
  return { file, changed: writeIfChanged(file, next.text, 0o600), group: next.group };
}

export function uninstallCodex(env: NodeJS.ProcessEnv = process.env): { file: string; removed: boolean } {
  const file = codexConfigFile(env);
  const text = readText(file);
  const { user, block } = splitOurBlock(text);
  if (!block) return { file, removed: false };
  if (user.trim() === "") fs.rmSync(file);
  else writeIfChanged(file, user, 0o600);
  return { file, removed: true };
}

export type CodexStatus =
  | { state: "not-installed"; file: string }
  | { state: "guarding"; file: string; command: string }
  | { state: "not-guarding"; file: string; why: string };

/** What doctor reports: our block absent, present and trusted as Codex will see it, or present but skipped. */
export function codexStatus(env: NodeJS.ProcessEnv = process.env): CodexStatus {
  const file = codexConfigFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return { state: "not-installed", file };
  }
  let split;
  try {
    split = splitOurBlock(text);
  } catch (e) {
    return { state: "not-guarding", file, why: (e as Error).message };
  }
  if (!split.block) return { state: "not-installed", file };
  const command = /^command = "((?:[^"\\]|\\.)*)"$/m.exec(split.block)?.[1];
  if (command === undefined) return { state: "not-guarding", file, why: "the Damage Control block has no command line" };
  const unescaped = JSON.parse(`"${command}"`) as string;
  const before = text.slice(0, text.indexOf(CODEX_BEGIN));
  const expected = renderBlock(unescaped, file, countPreToolUseGroups(before), Number(SEP_LINE.exec(split.block)?.[1] ?? "0"), countGroups(before, "PostToolUse"));
  if (!text.includes(expected)) {
    return { state: "not-guarding", file, why: "the block's trust entry no longer matches the hook as Codex numbers it (another [[hooks.PreToolUse]] group was added before it, or the block was edited): Codex skips it silently. Run `damage-control install codex` again" };
  }
  return { state: "guarding", file, command: unescaped };
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
