// The workspace the vscode tier opens: a temp folder with a known rules file, plus a temp state
// dir (DAMAGE_CONTROL_STATE_DIR) for the token and the endpoint registry, so no test ever reads or
// writes the developer's real ~/.local/state/damage-control.
//
//   const fx = makeFixture("ui-asks");
//   openWorkbench({ workspaceFolder: fx.workspace, env: fx.env });
//   const { url, token } = await waitForEndpoint(fx);
//   const answer = await postClaudeHook(url, token, bashHook(fx.workspace, "git push origin main"));
//   fx.cleanup();
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { lookupEndpoint } from "../../../src/core/registry";
import { readToken } from "../../../src/core/token";
import { DEFAULT_COUNTS } from "../../support/default-counts";

/** The block rule (recursive/forced rm) exactly as written in the file: the panel and the modal show it so. */
export const RM_PATTERN = String.raw`\brm\s+(-[^\s]*)*-[rRf]`;
/** The ask rule. */
export const PUSH_PATTERN = String.raw`\bgit\s+push\b`;
export const PUSH_REASON = "pushing changes the shared remote";

/** `.pi/damage-control-rules.yaml` of the fixture. Line numbers below are zero-based. Each kind
 *  has a different count, so that a panel showing one kind's count for another is caught. */
export const FIXTURE_RULES = [
  "# Damage Control rules of the vscode test tier's fixture workspace.", // 0
  "bashToolPatterns:", // 1
  `  - pattern: '${RM_PATTERN}'`, // 2
  "    reason: recursive or forced rm", // 3
  `  - pattern: '${PUSH_PATTERN}'`, // 4
  `    reason: ${PUSH_REASON}`, // 5
  "    ask: true", // 6
  "zeroAccessPaths:", // 7
  "  - .env", // 8
  '  - "*.pem"', // 9
  "readOnlyPaths:", // 10
  "  - config/", // 11
  "noDeletePaths:", // 12
  "  - data/", // 13
  "  - archive/", // 14
  '  - "*.sqlite"', // 15
  "",
].join("\n");

/** Zero-based lines of the rules in FIXTURE_RULES (for hovers). */
export const FIXTURE_LINES = { rmRule: 2, pushRule: 4, env: 8, config: 11, data: 13 } as const;

/** What FIXTURE_RULES holds, counted by hand. */
export const FILE_COUNTS = { total: 8, bashPatterns: 2, ask: 1, zeroAccess: 2, readOnly: 1, noDelete: 3 } as const;

/**
 * The rules in force for the fixture (the panel, the status bar and /health must agree), counted
 * by hand: the default floor (DEFAULT_COUNTS, counted by hand from default-rules.yaml) plus FIXTURE_RULES
 * (since issue 15 the file adds to the floor; it used to be FILE_COUNTS alone). .env and *.pem
 * are defaults too, so they count once.
 */
export const FIXTURE_COUNTS = {
  bashPatterns: DEFAULT_COUNTS.bashPatterns + 2, // the defaults + the rm rule + the push rule
  ask: DEFAULT_COUNTS.ask + 1, // the defaults + the push rule
  zeroAccess: DEFAULT_COUNTS.zeroAccess, // the file's .env and *.pem are among the defaults
  readOnly: DEFAULT_COUNTS.readOnly + 1, // the defaults + config/
  noDelete: DEFAULT_COUNTS.noDelete + 3, // .git/ + data/ archive/ *.sqlite
  total: DEFAULT_COUNTS.total + 2 + 1 + 3,
} as const;

// The broken file is built line by line so that each mistake's range is easy to read.
const brokenLines = [
  "# A rules file with mistakes, for the diagnostics tests.", // 0
  "bashToolPatterns:", // 1
  "  - pattern: '\\bgit\\s+tag\\b'", // 2
  "    reason: tags are shared", // 3
  "    ask: yes", // 4   `yes` at 9..12
  "  - pattern: '(unclosed'", // 5   `'(unclosed'` at 13..24
  "    reason: an invalid regex", // 6
  "zeroAcessPaths:", // 7   key at 0..14
  "  - .env", // 8
  "",
];
/**
 * A rules file with exactly three mistakes at known places (zero-based line, character):
 *   (4,9)-(4,12)   `yes` is not a boolean                 invalid-ask
 *   (5,13)-(5,24)  `'(unclosed'` is not a regex           invalid-regex
 *   (7,0)-(7,14)   `zeroAcessPaths` is not a known key    unknown-key, quick fix "zeroAccessPaths"
 */
export const BROKEN_RULES_TEXT = brokenLines.join("\n");

export interface ExpectedDiagnostic {
  code: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  message: RegExp;
}

/** The errors BROKEN_RULES_TEXT must produce, with their exact ranges (worked out by hand above). */
export const BROKEN_EXPECTED: readonly ExpectedDiagnostic[] = [
  { code: "invalid-ask", line: 4, character: 9, endLine: 4, endCharacter: 12, message: /ask must be true or false/ },
  { code: "invalid-regex", line: 5, character: 13, endLine: 5, endCharacter: 24, message: /Invalid regular expression/ },
  { code: "unknown-key", line: 7, character: 0, endLine: 7, endCharacter: 14, message: /Unknown key "zeroAcessPaths"\. Did you mean "zeroAccessPaths"\?/ },
];

/** Where the broken copy lives inside the fixture workspace (the guard's own rules file stays good). */
export const BROKEN_RELATIVE = "broken/.pi/damage-control-rules.yaml";

export interface Fixture {
  workspace: string;
  stateDir: string;
  /** Absolute path of the workspace's rules file (FIXTURE_RULES). */
  rulesFile: string;
  /** Absolute path of the broken copy (BROKEN_RULES_TEXT). */
  brokenFile: string;
  /** Environment for code-server (the extension host inherits it). */
  env: Record<string, string>;
  cleanup(): void;
}

/** Creates the workspace (rules file, a broken rules file, .env, config/, data/) and a state dir. */
export function makeFixture(label: string): Fixture {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `dc-${label}-`));
  // realpath: /tmp may be a symlink, and the guard compares resolved folders.
  const workspace = path.join(fs.realpathSync(root), "workspace");
  const stateDir = path.join(fs.realpathSync(root), "state");
  fs.mkdirSync(path.join(workspace, ".pi"), { recursive: true });
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const rulesFile = path.join(workspace, ".pi", "damage-control-rules.yaml");
  fs.writeFileSync(rulesFile, FIXTURE_RULES);
  const brokenFile = path.join(workspace, BROKEN_RELATIVE);
  fs.mkdirSync(path.dirname(brokenFile), { recursive: true });
  fs.writeFileSync(brokenFile, BROKEN_RULES_TEXT);
  fs.writeFileSync(path.join(workspace, ".env"), "API_KEY=not-a-real-secret\n");
  fs.mkdirSync(path.join(workspace, "config"));
  fs.writeFileSync(path.join(workspace, "config", "app.json"), '{ "port": 8080 }\n');
  fs.mkdirSync(path.join(workspace, "data"));
  fs.writeFileSync(path.join(workspace, "data", "records.csv"), "id,name\n1,a\n");
  fs.writeFileSync(path.join(workspace, "README.md"), "# Fixture workspace\n");
  return {
    workspace,
    stateDir,
    rulesFile,
    brokenFile,
    // The user and managed rule layers are the fixture's own (empty unless a test writes them).
    env: { DAMAGE_CONTROL_STATE_DIR: stateDir, DC_FIXTURE_WORKSPACE: workspace, DC_FIXTURE_STATE_DIR: stateDir, DAMAGE_CONTROL_USER_RULES: path.join(fs.realpathSync(root), "user-rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(fs.realpathSync(root), "managed-rules.yaml") },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The fixture as the extension host sees it (run-host-suite.main.ts passes it through the env). */
export function fixtureFromEnv(): { workspace: string; stateDir: string; rulesFile: string; brokenFile: string } {
  const workspace = process.env.DC_FIXTURE_WORKSPACE;
  const stateDir = process.env.DC_FIXTURE_STATE_DIR;
  if (!workspace || !stateDir) throw new Error("DC_FIXTURE_WORKSPACE / DC_FIXTURE_STATE_DIR are not set: run through run-host-suite.main.ts");
  return { workspace, stateDir, rulesFile: path.join(workspace, ".pi", "damage-control-rules.yaml"), brokenFile: path.join(workspace, BROKEN_RELATIVE) };
}

export interface HttpAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  ms: number;
}

/** One request to the endpoint, with the bearer token (undefined: none). */
export function request(url: string, token: string | undefined, method: "GET" | "POST", route: string, body?: unknown, timeoutMs = 90_000): Promise<HttpAnswer> {
  const started = Date.now();
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${route}`,
      {
        method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(data && { "content-type": "application/json", "content-length": Buffer.byteLength(data) }),
        },
        timeout: timeoutMs,
        agent: false, // a fresh socket each: asks stay open for seconds, in parallel
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, ms: Date.now() - started });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${route}: no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}

/** A Claude Code PreToolUse hook input for a Bash call in `cwd`. */
export function bashHook(cwd: string, command: string, sessionId = "vscode-tier"): Record<string, unknown> {
  return { hook_event_name: "PreToolUse", session_id: sessionId, cwd, tool_name: "Bash", tool_input: { command } };
}

/** POST /claude/hook; resolves with the HTTP answer (status 200 and the hook JSON for a good call). */
export function postClaudeHook(url: string, token: string, hookInput: Record<string, unknown>): Promise<HttpAnswer> {
  return request(url, token, "POST", "/claude/hook", hookInput);
}

/** The PreToolUse decision inside a /claude/hook answer, or undefined for `{}` (no opinion). */
export function permission(answer: HttpAnswer): { decision: string; reason: string } | undefined {
  const out = answer.body?.hookSpecificOutput;
  if (!out) return undefined;
  return { decision: out.permissionDecision, reason: out.permissionDecisionReason ?? "" };
}

/** Waits until the extension has registered an endpoint for the workspace in the fixture's state
 *  dir and it answers /health with the token. */
export async function waitForEndpoint(fx: { workspace: string; stateDir: string }, timeoutMs = 30_000): Promise<{ url: string; token: string }> {
  const deadline = Date.now() + timeoutMs;
  let last = "no registration yet";
  for (;;) {
    const reg = lookupEndpoint(fx.workspace, fx.stateDir);
    const token = readToken(fx.stateDir);
    if (reg && token) {
      try {
        const h = await request(reg.url, token, "GET", "/health", undefined, 5000);
        if (h.status === 200) return { url: reg.url, token };
        last = `/health answered ${h.status}`;
      } catch (e) {
        last = (e as Error).message;
      }
    }
    if (Date.now() > deadline) throw new Error(`the endpoint for ${fx.workspace} did not come up in ${timeoutMs} ms (${last}); state dir ${fx.stateDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
