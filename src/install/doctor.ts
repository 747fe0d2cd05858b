// What guards a folder, checked one thing at a time: the report of `damage-control doctor`.
// Each check is ok, warn or fail; any fail means the folder is not (fully) guarded.
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { lookupEndpoint, type Distrusted } from "../core/registry";
import { RulesStore } from "../core/rules-store";
import { readToken } from "../core/token";
import { userStateDir } from "../core/state-dir";
import type { Check, CheckStatus } from "./check";
import { detectClaudeVersion } from "./claude";
import { ON_FAILURE_SINCE, TOKEN_ENV } from "../engine/claude-settings";
import { managedSettingsPath, readManaged } from "./managed";
import { moreAgentChecks } from "./doctor-agents";
import { piCheck } from "./agent-checks";
import { claudeHooks } from "./doctor-claude";
import { compareVersions } from "../engine/version";
import { vscodeAgentCheck } from "./copilot";
import { sandboxChecks } from "./doctor-sandbox";

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
  const skipped: Distrusted[] = [];
  const reg = lookupEndpoint(folder, stateDir, { skipped });
  const token = readToken(stateDir);
  if (!reg) {
    const why = skipped.map((s) => `; the endpoint at ${s.reg.url} (pid ${s.reg.pid}) is not trusted: ${s.reason}`).join("");
    add("endpoint", "fail", `no endpoint guards ${folder}${why}: open it in VS Code or run \`damage-control serve --cwd ${folder}\``);
  } else {
    const h = await health(reg.url, token);
    if (h.ok) add("endpoint", "ok", `endpoint reachable at ${reg.url} (${reg.host}, pid ${reg.pid})`);
    else add("endpoint", "fail", `endpoint registered at ${reg.url} but not reachable (${h.detail})`);
  }

  // Hooks: project, user and managed settings (doctor-claude.ts; the line itself comes after the managed warnings)
  const managed = readManaged(o.managedFile ?? managedSettingsPath(env));
  const home = env.HOME || os.homedir();
  const claude = claudeHooks(folder, env, managed, reg?.url);
  const { pre, usesHttp } = claude;

  // Token in the environment (what Claude Code puts in the Authorization header)
  const envToken = env[TOKEN_ENV];
  // Hooks written by install since issue 14 carry the token in their header (no env var needed).
  const literal = pre.filter((f) => f.hook.type === "http").map((f) => String((f.hook.headers as Json | undefined)?.Authorization ?? "")).filter((h) => h && !h.includes("$"));
  if (literal.length > 0) {
    if (token && literal.every((h) => h === `Bearer ${token}`)) add("token", "ok", `the HTTP hooks carry the endpoint's token (no ${TOKEN_ENV} needed)`);
    else add("token", "fail", `the HTTP hooks carry a token that is not the endpoint's (reinstall: damage-control install claude --cwd ${folder})`);
  } else if (!usesHttp && pre.length > 0) add("token", "ok", `command hooks read the token from the state folder`);
  // No hooks yet: there is nothing a token would be missing from (issue 38: "FAIL token" where no
  // agent was wired). What is missing is the hooks, which the hooks line and the summary say.
  else if (pre.length === 0) add("token", "ok", `no Claude Code hooks yet, so none needs a token (damage-control install claude --cwd ${folder} writes hooks that carry it)`);
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
  checks.push(claude.check);

  checks.push(piCheck(env), ...moreAgentChecks(folder, env)); // pi; Codex CLI, Gemini CLI, Qwen Code, OpenCode, Copilot CLI (doctor-agents.ts)

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
    // The kernel sandbox the rules make (docs/sandbox.md): the mode, this machine, Claude Code's.
    checks.push(...sandboxChecks(folder, state.rules, env));
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
  // The one thing to do first when no agent is wired at all: wire one.
  const wired = r.checks.some((c) => c.agent?.state === "guarding");
  if (!wired) lines.push(`NOT GUARDED: no agent is wired to this folder yet. Wire one: damage-control install claude --cwd ${r.folder} (or pi, codex, gemini, copilot, qwen, opencode, cline)`);
  else lines.push(r.guarded ? "guarded" : "NOT GUARDED: fix the FAIL lines above");
  return lines.join("\n") + "\n";
}
