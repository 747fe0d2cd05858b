// bench/lib/claude-hook-log.ts reads the hook spans out of Claude Code 2.1.332's debug log: the
// figure "our hook ÷ an empty hook" of `npm run bench` stands on it. Lines from a real log.
import * as assert from "node:assert/strict";
import { hookSpans } from "../../bench/lib/claude-hook-log";

const HTTP_LOG = `2026-12-02T06:28:38.016Z [DEBUG] Hooks: HTTP hook POST to http://127.0.0.1:35603/claude/hook
2026-12-02T06:28:38.028Z [DEBUG] Git remote URL: null
2026-12-02T06:28:38.032Z [DEBUG] Hooks: HTTP hook response status 200, body length 2
2026-12-02T06:28:38.034Z [DEBUG] Successfully parsed and validated hook JSON output
2026-12-02T06:28:38.034Z [DEBUG] "Hook PreToolUse:Bash (PreToolUse) success:\\n{}"
2026-12-02T06:28:38.053Z [INFO] [Stall] tool_dispatch_start tool=Bash toolUseId=toolu_dc_0_0 permissionDecisionMs=14
2026-12-02T06:28:38.149Z [DEBUG] Hooks: HTTP hook POST to http://127.0.0.1:35603/claude/hook
2026-12-02T06:28:38.154Z [DEBUG] Hooks: HTTP hook response status 200, body length 2
2026-12-02T06:28:39.001Z [DEBUG] Hooks: HTTP hook POST to http://127.0.0.1:35603/claude/hook
`;

const COMMAND_LOG = `2026-12-02T06:28:46.764Z [DEBUG] Hooks: Checking first line for async: {}
2026-12-02T06:28:46.765Z [DEBUG] Hooks: PreToolUse:Bash [/bin/sh -c 'cat >/dev/null; echo {}'] finished with status 0 (23ms)
2026-12-02T06:28:46.767Z [DEBUG] "Hook PreToolUse:Bash (PreToolUse) success:\\n{}"
2026-12-02T06:28:46.865Z [DEBUG] Hooks: PreToolUse:Bash ['/state/bin/damage-control-hook' claude] finished with status 2 (9ms)
2026-12-02T06:28:46.880Z [DEBUG] Hooks: PreToolUse:Bash [[ -x ./hook ] && ./hook] finished with status 0 (4ms)
2026-12-02T06:28:46.900Z [DEBUG] Hooks: PreToolUse:Bash finished after 9ms without brackets
`;

describe("bench: hook spans from Claude Code's debug log", () => {
  it("HTTP: POST to response, each start paired with the next answer; a start without one is not counted", () => {
    assert.deepEqual(hookSpans(HTTP_LOG), [
      { kind: "http", ms: 16 },
      { kind: "http", ms: 5 },
    ]);
  });

  it("command: the span Claude Code printed, whatever the exit status and the brackets in the command", () => {
    assert.deepEqual(hookSpans(COMMAND_LOG), [
      { kind: "command", ms: 23 },
      { kind: "command", ms: 9 },
      { kind: "command", ms: 4 },
    ]);
  });

  it("a log without hooks has no spans", () => {
    assert.deepEqual(hookSpans("2026-12-02T06:28:38.133Z [DEBUG] [API REQUEST] /v1/messages source=sdk\n"), []);
  });
});
