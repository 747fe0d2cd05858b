// The one place where the panel asks for a verdict ("Try a command", Explain, the matched part of
// a feed entry). It goes through a time-bounded decider (a worker thread that is terminated when
// the limit is hit), never decide() on the extension host: a slow user regex must not freeze the
// window. When the guard exposes its own bounded decider (issue 12: one decision path), swap
// `panelDecider()` for it here and nowhere else.
import { endpointDecider, undecidedVerdict, type Decider } from "../../hookserver/decider";
import type { Guard } from "../../hookserver/guard";
import type { RulesStore } from "../../hookserver/rules-store";
import type { ToolCall } from "../../engine/toolcall";
import type { Verdict } from "../../engine/types";

let decider: Decider | undefined;

function panelDecider(): Decider {
  return (decider ??= endpointDecider(2000));
}

/** The verdict for `call` under the rules in force for `store`; a timeout or an error is a block. */
export async function decideForPanel(guard: Guard, store: RulesStore, call: ToolCall): Promise<Verdict> {
  const { realpath: _fn, ...ctx } = guard.contextFor(store, store.folder);
  try {
    return await panelDecider().decide(call, store.current().rules, ctx, "cli");
  } catch (e) {
    return undecidedVerdict(e);
  }
}

export function closePanelDecider(): void {
  decider?.close();
  decider = undefined;
}
