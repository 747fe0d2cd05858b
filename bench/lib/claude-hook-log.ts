// What each hook call took, as Claude Code itself logs it (`--debug-file`, 2.1.332). A session's
// total and even a turn carry the model mock, the tool and the machine's noise; the hook's own
// span is the cost a hook adds to a tool call, and it is what "ours ÷ an empty hook" compares.
//
// Command hooks: Claude Code prints the span it measured,
//   `… [DEBUG] Hooks: PreToolUse:Bash [<command>] finished with status 0 (9ms)`.
// HTTP hooks: no span is printed; it is the time between
//   `… [DEBUG] Hooks: HTTP hook POST to <url>` and the next `… Hooks: HTTP hook response status 200, …`
// (timestamps in whole milliseconds: the mean of many calls is the figure, not one call).

export interface HookSpan {
  kind: "command" | "http";
  ms: number;
}

const LINE = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) \[\w+\] (.*)$/;
const COMMAND_DONE = /^Hooks: \w+:\S* \[.*\] finished with status -?\d+ \((\d+)ms\)$/;
const HTTP_START = /^Hooks: HTTP hook POST to /;
const HTTP_DONE = /^Hooks: HTTP hook (response status|error)/;

/** Every hook call's span in a debug log, in order. Unmatched HTTP starts are not counted. */
export function hookSpans(debugLog: string): HookSpan[] {
  const spans: HookSpan[] = [];
  const httpStarts: number[] = [];
  for (const raw of debugLog.split("\n")) {
    const m = LINE.exec(raw);
    if (!m) continue;
    const [, stamp, text] = m;
    const done = COMMAND_DONE.exec(text!);
    if (done) {
      spans.push({ kind: "command", ms: Number(done[1]) });
    } else if (HTTP_START.test(text!)) {
      httpStarts.push(Date.parse(stamp!));
    } else if (HTTP_DONE.test(text!) && httpStarts.length) {
      spans.push({ kind: "http", ms: Date.parse(stamp!) - httpStarts.shift()! });
    }
  }
  return spans;
}
