// doctor's checks for Codex CLI, Gemini CLI and Copilot CLI (issue 18). Each agent is one of:
//   not installed            our hook is not configured: fine, the user does not use that agent (ok)
//   guarding                 our hook is configured where the agent will run it (ok)
//   installed, not guarding  configured, but the agent would skip it (FAIL: doctor exits 1)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codexStatus } from "./codex";
import { geminiSettingsFile, geminiStatus } from "./gemini";
import type { AgentState, Check } from "./check";
import { clineCheck, opencodeCheck, qwenCheck } from "./doctor-agents-more";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function readJson(file: string): Obj | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Whether Gemini CLI loads `folder`'s .gemini/settings.json (folder trust off, or the folder trusted). */
export function geminiLoadsProjectSettings(folder: string, env: NodeJS.ProcessEnv): { loads: boolean; why?: string } {
  if (env.GEMINI_CLI_TRUST_WORKSPACE === "true") return { loads: true };
  const home = env.HOME || os.homedir();
  const user = readJson(path.join(home, ".gemini/settings.json"));
  const trust = isObj(user?.security) && isObj(user.security.folderTrust) ? user.security.folderTrust.enabled : undefined;
  if (trust !== true) return { loads: true };
  const trusted = readJson(path.join(home, ".gemini/trustedFolders.json")) ?? {};
  const inside = (dir: string) => folder === dir || folder.startsWith(dir.endsWith("/") ? dir : dir + "/");
  for (const [p, v] of Object.entries(trusted)) {
    if (v === "TRUST_FOLDER" && inside(path.resolve(p))) return { loads: true };
    if (v === "TRUST_PARENT" && inside(path.dirname(path.resolve(p)))) return { loads: true };
  }
  return { loads: false, why: `folder trust is on in ~/.gemini/settings.json and ${folder} is not trusted: Gemini CLI ignores the project's .gemini/settings.json (trust the folder, or install with --user)` };
}

/** Our Copilot CLI entries in <folder>/.github/hooks/*.json: lower-case preToolUse, or the VS Code format it also runs. */
export function copilotCliHooks(folder: string): { file: string; kind: "preToolUse" | "PreToolUse" }[] {
  const dir = path.join(folder, ".github/hooks");
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const found: { file: string; kind: "preToolUse" | "PreToolUse" }[] = [];
  for (const n of names) {
    const file = path.join(dir, n);
    const hooks = readJson(file)?.hooks;
    if (!isObj(hooks)) continue;
    const ours = (entries: unknown) => Array.isArray(entries) && entries.some((e) => isObj(e) && [e.bash, e.command, e.linux].some((c) => typeof c === "string" && /damage-control|\bhook (copilot|vscode)\b/.test(c)));
    if (ours(hooks.preToolUse)) found.push({ file, kind: "preToolUse" });
    if (ours(hooks.PreToolUse)) found.push({ file, kind: "PreToolUse" });
  }
  return found;
}

export function moreAgentChecks(folder: string, env: NodeJS.ProcessEnv = process.env): Check[] {
  const checks: Check[] = [];
  // Every line here is an agent's: the state travels with it (the panel shows it, check.ts).
  const label: Record<string, string> = { codex: "Codex CLI", gemini: "Gemini CLI", "copilot-cli": "Copilot CLI" };
  const add = (id: string, status: Check["status"], message: string, state: AgentState) => checks.push({ id, status, message, agent: { label: label[id]!, state } });

  const codex = codexStatus(env);
  if (codex.state === "not-installed") add("codex", "ok", `Codex CLI: not installed (only needed for Codex: damage-control install codex)`, "not-installed");
  else if (codex.state === "guarding") add("codex", "ok", `Codex CLI: PreToolUse hook and its trust entry in ${codex.file}`, "guarding");
  else add("codex", "fail", `Codex CLI: our hook is in ${codex.file} but Codex would not run it: ${codex.why}`, "not-guarding");

  const project = geminiStatus(geminiSettingsFile({ folder, user: false }, env));
  const user = geminiStatus(geminiSettingsFile({ folder, user: true }, env));
  const broken = [project, user].find((s) => s.state === "not-guarding");
  if (broken && broken.state === "not-guarding") add("gemini", "fail", `Gemini CLI: our hook is in ${broken.file} but Gemini would not run it: ${broken.why}`, "not-guarding");
  else if (user.state === "guarding") add("gemini", "ok", `Gemini CLI: BeforeTool hook in ${user.file}`, "guarding");
  else if (project.state === "guarding") {
    const t = geminiLoadsProjectSettings(folder, env);
    if (t.loads) add("gemini", "ok", `Gemini CLI: BeforeTool hook in ${project.file}`, "guarding");
    else add("gemini", "fail", `Gemini CLI: our hook is in ${project.file} but ${t.why}`, "not-guarding");
  } else add("gemini", "ok", `Gemini CLI: not installed (only needed for Gemini CLI: damage-control install gemini)`, "not-installed");

  checks.push(qwenCheck(env), opencodeCheck(folder, env), clineCheck(folder, env));

  const copilot = copilotCliHooks(folder);
  if (copilot.length === 0) add("copilot-cli", "ok", `Copilot CLI: no Damage Control entry in ${path.join(folder, ".github/hooks")} (only needed for Copilot CLI: damage-control install copilot)`, "not-installed");
  else add("copilot-cli", "ok", `Copilot CLI: ${copilot.map((c) => `${c.kind} entry in ${path.basename(c.file)}`).join(", ")}`, "guarding");
  return checks;
}
