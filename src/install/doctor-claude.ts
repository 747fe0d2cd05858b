// doctor's check of our Claude Code hooks for a folder: installed (project local, project, user or
// managed settings) and not shadowed (allowManagedHooksOnly, disableAllHooks, allowedHttpHookUrls,
// a moved port). Files only: no Claude Code process, no network, so the panel can run it too.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Check, CheckStatus } from "./check";
import { CLAUDE_SETTINGS } from "./claude";
import { listOurHooks } from "../engine/claude-settings";
import { projectHooksDisabledMessage, type ManagedState } from "./managed";

type Json = Record<string, unknown>;

export interface FoundHook {
  level: string;
  event: string;
  hook: Json;
}

export interface ClaudeHooks {
  /** Our PreToolUse hooks that Claude Code would load (managed only, when managed says so). */
  pre: FoundHook[];
  usesHttp: boolean;
  /** The doctor's `hooks` line, with the agent state the panel shows. */
  check: Check;
}

function readJson(file: string): Json | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

export function claudeHooks(folder: string, env: NodeJS.ProcessEnv, managed: ManagedState, endpointUrl: string | undefined): ClaudeHooks {
  const home = env.HOME || os.homedir();
  const levels: { name: string; file: string }[] = [
    { name: "project local", file: path.join(folder, CLAUDE_SETTINGS) },
    { name: "project", file: path.join(folder, ".claude/settings.json") },
    { name: "user", file: path.join(home, ".claude/settings.json") },
  ];
  const found: FoundHook[] = [];
  const disablers: string[] = [];
  for (const l of levels) {
    const s = readJson(l.file);
    if (!s) continue;
    if (s.disableAllHooks === true) disablers.push(l.file);
    for (const h of listOurHooks(s)) found.push({ level: l.name, event: h.event, hook: h.hook as Json });
  }
  if (managed.settings) for (const h of listOurHooks(managed.settings)) found.push({ level: "managed", event: h.event, hook: h.hook as Json });
  const effective = managed.managedHooksOnly ? found.filter((f) => f.level === "managed") : found;
  const pre = effective.filter((f) => f.event === "PreToolUse");
  const usesHttp = pre.some((f) => f.hook.type === "http");
  // Our hook written nowhere is "not installed" whatever else the doctor says about the folder.
  const ours = found.some((f) => f.event === "PreToolUse");
  const line = (status: CheckStatus, message: string): Check => ({ id: "hooks", status, message, agent: { label: "Claude Code", state: !ours ? "not-installed" : status === "fail" ? "not-guarding" : "guarding" } });

  let check: Check;
  if (managed.disableAllHooks) check = line("fail", `${managed.file} sets disableAllHooks: no hook runs`);
  else if (disablers.length > 0 && !(managed.managedHooksOnly && pre.length > 0)) check = line("fail", `disableAllHooks is set in ${disablers.join(", ")}: no hook runs`);
  else if (managed.projectHooksDisabled && ours) check = line("fail", projectHooksDisabledMessage(managed));
  else if (pre.length === 0) check = line("fail", `no Damage Control PreToolUse hook for this folder (damage-control install claude --cwd ${folder})`);
  else {
    const where = [...new Set(pre.map((f) => f.level))].join(", ");
    const events = [...new Set(effective.map((f) => f.event))].join(", ");
    const urls = [...new Set(pre.filter((f) => f.hook.type === "http").map((f) => String(f.hook.url)))];
    const stale = endpointUrl ? urls.filter((u) => u !== `${endpointUrl}/claude/hook`) : [];
    const allowed = managed.settings?.allowedHttpHookUrls;
    const blocked = Array.isArray(allowed) && usesHttp && !urls.every((u) => (allowed as unknown[]).some((a) => typeof a === "string" && new RegExp("^" + a.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*") + "$").test(u)));
    if (blocked) check = line("fail", `managed allowedHttpHookUrls does not allow ${urls.join(", ")}: Claude Code refuses to call our hooks`);
    else if (stale.length > 0) check = line("warn", `hooks (${where}) point at ${stale.join(", ")} but the endpoint listens at ${endpointUrl}`);
    else check = line("ok", `hooks installed (${where}) for ${events}${urls.length ? "" : " (command hooks)"}`);
  }
  return { pre, usesHttp, check };
}
