// Runs a pinned, real Claude Code CLI headless (`claude -p --output-format json`) against a mock
// Messages API. Each run gets a fresh HOME and CLAUDE_CONFIG_DIR (no user settings or hooks leak
// in), an allowlisted environment (no proxies, no ANTHROPIC_*/CLAUDE* from the developer's shell),
// its own process group and a deadline. Facts behind each choice:
// /work/shared/notes/claude-code-headless-testing.md.
import * as fs from "node:fs";
import * as path from "node:path";
import { claudeBin, type ClaudeVersion } from "../../../scripts/test-tools.js";
import { isolatedEnv } from "./env";
import { logRun, runInGroup } from "./process";
import { removeTemp, tempDir } from "./tmp";

export type { ClaudeVersion };

/**
 * Where the settings go. "flag": a file passed with `--settings`; "local": the project's
 * `.claude/settings.local.json` (what the product writes); "project": `.claude/settings.json`.
 */
export type SettingsTarget = "flag" | "local" | "project";

export interface RunClaudeOptions {
  version: ClaudeVersion;
  /** Project folder; the run's cwd. */
  cwd: string;
  /** Mock Messages API, e.g. `mock.url` (`http://127.0.0.1:<port>`). */
  baseUrl: string;
  prompt: string;
  /** Settings JSON (hooks, permissions). Omit to write nothing (e.g. the product already did). */
  settings?: object;
  settingsTarget?: SettingsTarget;
  /** `--allowedTools`, e.g. ["Bash", "Bash(echo *)", "Write"]. */
  allowedTools?: string[];
  permissionMode?: "default" | "acceptEdits" | "bypassPermissions" | "plan";
  /** Added last, so it wins (DAMAGE_CONTROL_TOKEN for `$VAR` header interpolation, etc.). */
  env?: Record<string, string | undefined>;
  /** Default 60 s; on expiry the process group is SIGKILLed. */
  timeoutMs?: number;
  /** Pass `--debug-file` and return its text as `debugLog` (HTTP hook lines, timings). */
  debug?: boolean;
  /** Added before `--allowedTools`, e.g. ["--include-hook-events"]. */
  extraArgs?: string[];
}

/** The `--output-format json` result object (fields seen in 2.1.332 and 2.1.197). */
export interface ClaudeResult {
  type: "result";
  subtype: string;
  is_error: boolean;
  result?: string;
  num_turns?: number;
  terminal_reason?: string;
  permission_denials?: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
  session_id?: string;
  [k: string]: unknown;
}

export interface ClaudeRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Parsed result JSON, or undefined when stdout held none (crash, timeout). */
  result: ClaudeResult | undefined;
  stdout: string;
  stderr: string;
  durationMs: number;
  debugLog?: string;
}

function writeSettings(target: SettingsTarget, settings: object, cwd: string, runDir: string): string[] {
  const json = JSON.stringify(settings, null, 2) + "\n";
  if (target === "flag") {
    const file = path.join(runDir, "settings.json");
    fs.writeFileSync(file, json);
    return ["--settings", file];
  }
  const file = path.join(cwd, ".claude", target === "local" ? "settings.local.json" : "settings.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, json);
  return [];
}

function parseResult(stdout: string): ClaudeResult | undefined {
  // One JSON object; take the last line that parses, in case anything was printed before it.
  for (const line of stdout.trim().split("\n").reverse()) {
    try {
      const v = JSON.parse(line);
      if (v && typeof v === "object" && v.type === "result") return v as ClaudeResult;
    } catch {
      /* not the result line */
    }
  }
  return undefined;
}

export async function runClaude(opts: RunClaudeOptions): Promise<ClaudeRun> {
  const runDir = tempDir(`claude-${opts.version}`);
  const home = path.join(runDir, "home");
  const configDir = path.join(home, ".claude");
  const tmp = path.join(runDir, "tmp");
  for (const d of [configDir, tmp]) fs.mkdirSync(d, { recursive: true });

  const args = ["-p", opts.prompt, "--output-format", "json"];
  if (opts.settings) args.push(...writeSettings(opts.settingsTarget ?? "flag", opts.settings, opts.cwd, runDir));
  if (opts.permissionMode) args.push("--permission-mode", opts.permissionMode);
  const debugFile = path.join(runDir, "debug.log");
  if (opts.debug) args.push("--debug-file", debugFile);
  args.push(...(opts.extraArgs ?? []));
  // Variadic flag: last, so it cannot swallow the prompt or another flag's value.
  if (opts.allowedTools?.length) args.push("--allowedTools", ...opts.allowedTools);

  const env = isolatedEnv({
    home,
    tmpdir: tmp,
    gitCeiling: path.dirname(opts.cwd),
    extra: {
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: opts.baseUrl,
      ANTHROPIC_API_KEY: "sk-ant-e2e-dummy",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      // Claude Code refuses bypassPermissions as root unless it is told it runs in a sandbox.
      ...(opts.permissionMode === "bypassPermissions" && process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
      ...opts.env,
    },
  });

  const run = await runInGroup({ command: claudeBin(opts.version), args, cwd: opts.cwd, env, timeoutMs: opts.timeoutMs ?? 60_000 });
  logRun(`claude ${opts.version}`, run);
  const debugLog = opts.debug && fs.existsSync(debugFile) ? fs.readFileSync(debugFile, "utf8") : undefined;
  removeTemp(runDir);
  return { ...run, result: parseResult(run.stdout), ...(debugLog !== undefined ? { debugLog } : {}) };
}
