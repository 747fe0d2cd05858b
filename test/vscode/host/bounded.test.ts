// Every decision on the extension host goes through the guard's bounded worker: "Test a Command"
// (and the panel's "Try a command", which calls the same guard.tryCall) with a catastrophic rule
// (`^(a+)+$`, only a warning in the rules file) is cut off at the time limit and refused, while
// the extension host's event loop keeps running. Decided on the host, this call would freeze the
// window for hours (2^40 backtracking steps).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { Verdict } from "../../../src/engine/types";
import { fixtureFromEnv } from "../support/fixture-workspace";
import { dcApi, stubWindow, until } from "./helpers";

const fx = fixtureFromEnv();
const SLOW_RULES = "bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n";

suite("decisions on the extension host are bounded", () => {
  test("Test a Command with a catastrophic rule: refused at the limit, the host stays responsive", async function () {
    this.timeout(60_000);
    const api = await dcApi();
    const original = fs.readFileSync(fx.rulesFile, "utf8");
    const shown: string[] = [];
    const restoreInfo = stubWindow("showInformationMessage", async (text: string) => {
      shown.push(text);
      return undefined;
    });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      fs.writeFileSync(fx.rulesFile, SLOW_RULES);
      const guard = api.host.guard!;
      await until(() => guard.storeFor(fx.workspace).current().rules.bashToolPatterns.some((r) => r.pattern === "^(a+)+$"), 10_000, "the slow rule in force");
      const before = ticks;
      const v = (await vscode.commands.executeCommand("damageControl.testCommand", "a".repeat(40) + "!")) as Verdict;
      assert.ok(ticks > before, "the extension host's event loop did not run while deciding");
      // `^(a+)+$` against 40 a's and a `!` backtracks 2^40 times: only the time limit ends it, as a refusal.
      assert.equal(v.action, "block", v.reason);
      assert.match(v.reason, /could not decide .*longer than \d+ ms/);
      // Changed on purpose (issue 38): the result is shown in the panel's Try a command (verdict,
      // the rule's reason, the matched part; test/vscode/ui/newcomer.test.ts), not in a toast.
      assert.deepEqual(shown, [], "Test a Command answered in a toast");
    } finally {
      clearInterval(ticker);
      restoreInfo();
      fs.writeFileSync(fx.rulesFile, original);
      await until(() => !api.host.guard!.storeFor(fx.workspace).current().rules.bashToolPatterns.some((r) => r.pattern === "^(a+)+$"), 10_000, "the fixture's rules back");
    }
  });
});
