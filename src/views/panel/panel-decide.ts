// The one place where the panel asks for a verdict ("Try a command", Explain, the matched part of
// a feed entry): through the guard's own bounded decider, the path every agent's call takes, so a
// slow user regex is cut off at the time limit and never freezes the window.
import type { Guard } from "../../core/guard";
import type { RulesStore } from "../../core/rules-store";
import type { ToolCall } from "../../engine/toolcall";
import type { Verdict } from "../../engine/types";

/** The verdict for `call` under the rules in force for `store`; a timeout or an error is a block. */
export function decideForPanel(guard: Guard, store: RulesStore, call: ToolCall): Promise<Verdict> {
  return guard.tryCall(call, store.folder);
}
