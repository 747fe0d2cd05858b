// Scripted sessions of the real agents, as the e2e tier drives them (test/e2e/support): the
// pinned Claude Code 2.1.332 (`claude -p`) against the mock Messages API, pi 1.6.0 against the
// mock chat completions API. One session = N Bash tool calls, one per model turn: N − 1 harmless
// commands and, last, `git reset --hard` in the throwaway project (committed, nothing to lose).
// Every guard measured refuses that last call, so each guarded session proves its hook was live;
// without a guard it runs. A session whose results say otherwise is an error, not a figure.
import * as fs from "node:fs";
import * as path from "node:path";
import { bash, startAnthropicMock, type AnthropicStep } from "../../test/e2e/support/anthropic-mock";
import { runClaude } from "../../test/e2e/support/claude";
import { piBash, startOpenAIMock, type OpenAIStep } from "../../test/e2e/support/openai-mock";
import { hookSpans } from "./claude-hook-log";
import { runPi } from "../../test/e2e/support/pi";

export const PROBE = "git reset --hard";

export function harmless(i: number): string {
  return `echo step-${i} > /dev/null`;
}

export interface SessionResult {
  wallMs: number;
  calls: number;
  /**
   * Claude sessions: the time from one model request of the main loop to the next, one per tool
   * call (the model's answer, Claude Code's turn, its hooks and the tool): many samples a session,
   * so a hook's cost shows as a shift of their median instead of in the session's total.
   */
  turnMs?: number[];
  /** Claude sessions: each hook call's span as Claude Code logged it (bench/lib/claude-hook-log.ts). */
  hookMs?: number[];
}

export interface ClaudeSession {
  cwd: string;
  calls: number;
  /** Settings with the hooks under test; undefined = no hook. */
  settings?: object;
  env?: Record<string, string>;
  /** Text the refused probe's tool_result must contain; undefined = the probe must run. */
  refusedBy?: RegExp;
}

export async function claudeSession(s: ClaudeSession): Promise<SessionResult> {
  const steps: AnthropicStep[] = Array.from({ length: s.calls }, (_, i) => [bash(i === s.calls - 1 ? PROBE : harmless(i))]);
  const mock = await startAnthropicMock({ steps, finalText: () => "DONE" });
  try {
    const run = await runClaude({ version: "2.1.332", cwd: s.cwd, baseUrl: mock.url, prompt: "Do the work.", settings: s.settings, allowedTools: ["Bash"], env: s.env, debug: true, timeoutMs: 180_000 });
    if (run.exitCode !== 0 || run.timedOut) throw new Error(`claude exited ${run.exitCode}${run.timedOut ? " (timed out)" : ""}: ${run.stderr.slice(0, 400)}`);
    const results = mock.toolResults();
    if (results.length !== s.calls) throw new Error(`claude session: ${results.length} tool results, expected ${s.calls}`);
    const bad = results.slice(0, -1).findIndex((r) => r.isError);
    if (bad >= 0) throw new Error(`claude session: harmless call ${bad} was refused: ${results[bad]!.text.slice(0, 200)}`);
    checkProbe("claude", results[results.length - 1]!.text, results[results.length - 1]!.isError, s.refusedBy);
    const main = mock.mainRequests();
    const turnMs = main.slice(1).map((r, i) => r.atHr - main[i]!.atHr);
    const hookMs = hookSpans(run.debugLog ?? "").map((h) => h.ms);
    if (s.settings && hookMs.length < s.calls) throw new Error(`claude session: ${hookMs.length} hook calls in the debug log for ${s.calls} tool calls`);
    return { wallMs: run.durationMs, calls: s.calls, turnMs, hookMs };
  } finally {
    await mock.close();
  }
}

/** The floor of a pi extension: one that returns at once from its tool_call handler. Written to `dir`; returns its path. */
export function writeEmptyPiExtension(dir: string): string {
  const file = path.join(dir, "empty-pi-extension.js");
  fs.writeFileSync(file, `module.exports = function emptyExtension(pi) { pi.on("tool_call", async () => undefined); };\n`);
  return file;
}

export interface PiSession {
  cwd: string;
  calls: number;
  extensions?: string[];
  env?: Record<string, string>;
  refusedBy?: RegExp;
}

export async function piSession(s: PiSession): Promise<SessionResult> {
  const steps: OpenAIStep[] = Array.from({ length: s.calls }, (_, i) => [piBash(i === s.calls - 1 ? PROBE : harmless(i))]);
  const mock = await startOpenAIMock({ steps, finalText: () => "DONE" });
  try {
    const run = await runPi({ version: "1.6.0", cwd: s.cwd, baseUrl: mock.baseUrl, prompt: "Do the work.", extensions: s.extensions, env: s.env, timeoutMs: 180_000 });
    if (run.exitCode !== 0 || run.timedOut) throw new Error(`pi exited ${run.exitCode}${run.timedOut ? " (timed out)" : ""}: ${run.stderr.slice(0, 400)}`);
    const results = mock.toolResults();
    if (results.length !== s.calls) throw new Error(`pi session: ${results.length} tool results, expected ${s.calls}`);
    const probe = results[results.length - 1]!.text;
    checkProbe("pi", probe, s.refusedBy ? s.refusedBy.test(probe) : false, s.refusedBy);
    return { wallMs: run.durationMs, calls: s.calls };
  } finally {
    await mock.close();
  }
}

function checkProbe(agent: string, text: string, isError: boolean, refusedBy: RegExp | undefined): void {
  if (refusedBy) {
    if (!isError || !refusedBy.test(text)) throw new Error(`${agent} session: the guard did not refuse \`${PROBE}\` (its hook was not live?): ${text.slice(0, 200)}`);
  } else if (isError || !/HEAD is now at/.test(text)) {
    throw new Error(`${agent} session without a guard: \`${PROBE}\` did not run: ${text.slice(0, 200)}`);
  }
}
