// The guard a command hook or the pi extension decides with when no endpoint can answer: the
// folder whose rules file covers the cwd (else the cwd itself), the same rules and the same
// bounded decider as the endpoint. One per folder, made on first use.
import * as path from "node:path";
import { boundedDecider, type Decider } from "./decider";
import { Guard } from "./guard";
import { sandboxFromRules } from "./sandbox/from-rules";
import { findRulesFile, folderOfRulesFile } from "./rules-store";

export class LocalGuards {
  private readonly guards = new Map<string, Guard>();

  /** `decider` makes the decider of each new guard (the pi bundle is its own worker). */
  constructor(private readonly decider: () => Decider = () => boundedDecider()) {}

  for(cwd: string): Guard {
    const rulesFile = findRulesFile(cwd);
    const folder = rulesFile ? folderOfRulesFile(rulesFile) : path.resolve(cwd);
    let g = this.guards.get(folder);
    if (!g) {
      // The same sandbox step as the endpoint: under `required` a call it cannot sandbox is refused here too.
      const guard: Guard = new Guard({ folders: [folder], decider: this.decider(), sandbox: sandboxFromRules((f) => guard.storeFor(f).current().rules) });
      this.guards.set(folder, (g = guard));
    }
    return g;
  }

  /** Writes what is pending to the ledgers and stops the workers. */
  async close(): Promise<void> {
    const all = [...this.guards.values()];
    this.guards.clear();
    await Promise.all(all.map((g) => g.drain()));
    for (const g of all) g.close();
  }
}
