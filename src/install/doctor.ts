// What guards a folder, checked one thing at a time: the report of `damage-control doctor`.
// Each check is ok, warn or fail; any fail means the folder is not (fully) guarded.
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { lookupEndpoint } from "../core/registry";
import { RulesStore } from "../core/rules-store";
import { readToken } from "../core/token";
import { userStateDir } from "../core/state-dir";
import type { Check, CheckStatus } from "./check";
import { CLAUDE_SETTINGS, detectClaudeVersion } from "./claude";
import { listOurHooks, ON_FAILURE_SINCE, TOKEN_ENV } from "../engine/claude-settings";
import { managedSettingsPath, projectHooksDisabledMessage, readManaged } from "./managed";
import { moreAgentChecks } from "./doctor-agents";
import { isPiInstalled, piExtensionPath } from "./pi";
import { compareVersions } from "../engine/version";
import { vscodeAgentCheck } from "./copilot";

export interface DoctorReport {
  folder: string;
  guarded: boolean;
  checks: Check[];
}

export interface DoctorOptions {
  folder: string;
  env?: NodeJS.ProcessEnv;
  managedFile?: string;
  rulesPath?: string;
  /** Claude Code version; detected with `claude --version` when undefined. */
  claudeVersion?: string | null;
}

type Json = Record<string, unknown>;

function readJson(file: string): Json | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

function health(url: string, token: string | undefined, timeoutMs = 2000): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/health`, { headers: token ? { authorization: `Bearer ${token}` } : {}, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? { ok: true, detail: "" } : { ok: false, detail: `HTTP ${res.statusCode}` }));
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (e) => resolve({ ok: false, detail: (e as NodeJS.ErrnoException).code ?? e.message }));
  });
}

/** Does NO_PROXY cover the loopback endpoint? */
export function noProxyCoversLoopback(noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  return noProxy.split(/[,\s]+/).some((e) => e === "*" || e === "127.0.0.1" || e === "localhost" || e === "127.0.0.0/8");
}

export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const env = o.env ?? process.env;
  const folder = path.resolve(o.folder);
  const stateDir = userStateDir(env);
  const checks: Check[] = [];
  const add = (id: string, status: CheckStatus, message: string) => checks.push({ id, status, message });

  // Endpoint
  const reg = lookupEndpoint(folder, stateDir);
  const token = readToken(stateDir);
  if (!reg) {
    add("endpoint", "fail", `no endpoint guards ${folder}: open it in VS Code or run \`damage-control serve --cwd ${folder}\``);
  } else {
    const h = await health(reg.url, token);
    if (h.ok) add("endpoint", "ok", `endpoint reachable at ${reg.url} (${reg.host}, pid ${reg.pid})`);
    else add("endpoint", "fail", `endpoint registered at ${reg.url} but not reachable (${h.detail})`);
  }

  // Hooks: project, user and managed settings
  const managed = readManaged(o.managedFile ?? managedSettingsPath(env));
  const home = env.HOME || os.homedir();
  const levels: { name: string; file: string }[] = [
    { name: "project local", file: path.join(folder, CLAUDE_SETTINGS) },
    { name: "project", file: path.join(folder, ".claude/settings.json") },
    { name: "user", file: path.join(home, ".claude/settings.json") },
  ];
  const found: { level: string; event: string; hook: Json }[] = [];
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

  // Token in the environment (what Claude Code puts in the Authorization header)
  const envToken = env[TOKEN_ENV];
  // Hooks written by install since issue 14 carry the token in their header (no env var needed).
  const literal = pre.filter((f) => f.hook.type === "http").map((f) => String((f.hook.headers as Json | undefined)?.Authorization ?? "")).filter((h) => h && !h.includes("$"));
  if (literal.length > 0) {
    if (token && literal.every((h) => h === `Bearer ${token}`)) add("token", "ok", `the HTTP hooks carry the endpoint's token (no ${TOKEN_ENV} needed)`);
    else add("token", "fail", `the HTTP hooks carry a token that is not the endpoint's (reinstall: damage-control install claude --cwd ${folder})`);
  } else if (!usesHttp && pre.length > 0) add("token", "ok", `command hooks read the token from the state folder`);
  else if (!envToken) add("token", "fail", `${TOKEN_ENV} is not set in this environment: Claude Code's HTTP hooks would send no token and be refused (VS Code terminals export it; elsewhere export it from \`damage-control endpoint --cwd ${folder}\`)`);
  else if (token && envToken !== token) add("token", "fail", `${TOKEN_ENV} is set but is not the endpoint's token (stale shell?)`);
  else add("token", "ok", `${TOKEN_ENV} is set and matches the endpoint's token`);

  // Claude Code version and onFailure
  const version = o.claudeVersion === undefined ? await detectClaudeVersion() : o.claudeVersion ?? undefined;
  if (!version) add("claude", "warn", `Claude Code not found (claude --version; $DAMAGE_CONTROL_CLAUDE_BIN names the binary)`);
  else if (compareVersions(version, ON_FAILURE_SINCE) >= 0) add("claude", "ok", `Claude Code ${version} honours onFailure "block" on HTTP hooks`);
  else if (usesHttp) add("claude", "fail", `Claude Code ${version} ignores onFailure on HTTP hooks: a dead endpoint fails open (reinstall: damage-control install claude, which writes command hooks for it)`);
  else add("claude", "ok", `Claude Code ${version} ignores onFailure; the command hooks installed for it decide locally`);

  // Hooks installed and not shadowed
  if (managed.error) add("managed", "warn", `${managed.file}: ${managed.error}`);
  for (const w of managed.warnings) add("managed", "warn", `${managed.file}: ${w}`);
  if (managed.disableAllHooks) add("hooks", "fail", `${managed.file} sets disableAllHooks: no hook runs`);
  else if (disablers.length > 0 && !(managed.managedHooksOnly && pre.length > 0)) add("hooks", "fail", `disableAllHooks is set in ${disablers.join(", ")}: no hook runs`);
  else if (managed.projectHooksDisabled && found.some((f) => f.event === "PreToolUse")) add("hooks", "fail", projectHooksDisabledMessage(managed));
  else if (pre.length === 0) add("hooks", "fail", `no Damage Control PreToolUse hook for this folder (damage-control install claude --cwd ${folder})`);
  else {
    const where = [...new Set(pre.map((f) => f.level))].join(", ");
    const events = [...new Set(effective.map((f) => f.event))].join(", ");
    const urls = [...new Set(pre.filter((f) => f.hook.type === "http").map((f) => String(f.hook.url)))];
    const stale = reg ? urls.filter((u) => u !== `${reg.url}/claude/hook`) : [];
    const allowed = managed.settings?.allowedHttpHookUrls;
    const blocked = Array.isArray(allowed) && usesHttp && !urls.every((u) => (allowed as unknown[]).some((a) => typeof a === "string" && new RegExp("^" + a.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*") + "$").test(u)));
    if (blocked) add("hooks", "fail", `managed allowedHttpHookUrls does not allow ${urls.join(", ")}: Claude Code refuses to call our hooks`);
    else if (stale.length > 0) add("hooks", "warn", `hooks (${where}) point at ${stale.join(", ")} but the endpoint listens at ${reg!.url}`);
    else add("hooks", "ok", `hooks installed (${where}) for ${events}${urls.length ? "" : " (command hooks)"}`);
  }

  // pi
  if (isPiInstalled(env)) add("pi", "ok", `pi extension installed globally (${piExtensionPath(env)})`);
  else add("pi", "warn", `pi extension not installed (only needed for pi: damage-control install pi)`);

  checks.push(...moreAgentChecks(folder, env)); // Codex CLI, Gemini CLI, Copilot CLI (doctor-agents.ts)

  // Rules
  try {
    const state = new RulesStore(folder, o.rulesPath).current();
    const errors = state.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = state.diagnostics.filter((d) => d.severity === "warning").length;
    if (state.broken) add("rules", "fail", `${state.file} has ${errors} error(s): the ${state.source === "last-good" ? "last good rules" : "embedded defaults"} are in force (damage-control rules lint ${state.file})`);
    else if (state.source === "default") add("rules", "ok", `no rules file (${state.file}): the embedded default rules are in force`);
    else add("rules", warnings ? "warn" : "ok", `${state.file} is healthy${warnings ? ` (${warnings} warning(s))` : ""}`);
    // Which layers make up the rules in force, strongest first (docs/layers.md).
    const layers = (state.layers ?? []).filter((l) => l.present).map((l) => `${l.name}${l.file ? ` ${l.file}` : ""} (${l.count} rule(s)${l.name === "workspace" && !l.trusted ? ", additions only" : ""})`);
    if (layers.length) add("layers", "ok", layers.join(" → "));
    if (state.pending) add("layers", "warn", `${state.pending.file} disables ${state.pending.loosening.drops.length} rule(s) / adds ${state.pending.loosening.exceptions.length} exception(s): not in force until approved in VS Code`);
  } catch (e) {
    add("rules", "fail", `the rules cannot be read: ${(e as Error).message}`);
  }

  // Proxies
  const proxyVars = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"].filter((v) => env[v]);
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  if (proxyVars.length === 0) add("proxy", "ok", "no proxy variables set");
  else if (noProxyCoversLoopback(noProxy)) add("proxy", "ok", `${proxyVars.join(", ")} set; NO_PROXY covers 127.0.0.1`);
  else add("proxy", "fail", `${proxyVars.join(", ")} set and NO_PROXY does not cover 127.0.0.1/localhost: Claude Code sends hook traffic to the proxy (add NO_PROXY=127.0.0.1,localhost)`);

  checks.push(vscodeAgentCheck({ home, stateDir, folder }));
  return { folder, guarded: !checks.some((c) => c.status === "fail"), checks };
}

export function formatReport(r: DoctorReport): string {
  const mark: Record<CheckStatus, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };
  const lines = [`Damage Control doctor: ${r.folder}`, ...r.checks.map((c) => `  ${mark[c.status]}  ${c.id.padEnd(8)} ${c.message}`)];
  lines.push(r.guarded ? "guarded" : "NOT GUARDED: fix the FAIL lines above");
  return lines.join("\n") + "\n";
}
