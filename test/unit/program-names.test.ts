// A program, subcommand or option is a word the agent writes: the analysis looks such words up in
// its tables, and a word that is a property of every JavaScript object (`constructor`,
// `__proto__`, `hasOwnProperty`) must be read as the unknown name it is, never as that property.
// Before, `hasOwnProperty x` and `__proto__ x` made the analysis throw (a refusal saying Damage
// Control could not decide) and `constructor` reached Object.prototype's function as its handler.
import * as assert from "node:assert/strict";
import { decideCommand } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import { verdict } from "./shell-helpers";

const NAMES = Object.getOwnPropertyNames(Object.prototype);
const SHAPES = ["N", "N x", "N -rf /etc", "sudo N x", "env N x", "git N x", "kubectl N x", "aws N x", "docker N x", "npm N", "psql N", "gh N x", "bash -c 'N x'", "xargs N < list", "x=1 N"];

describe("program names that are Object.prototype properties", () => {
  for (const [policy, decide] of [
    ["reference rules", (c: string) => verdict(c)],
    ["embedded defaults", (c: string) => decideCommand(c, defaultRules(), { cwd: "/work/p", home: "/home/u" })],
  ] as const) {
    it(`are decided like any unknown name (${policy}): ${NAMES.length} names × ${SHAPES.length} shapes`, () => {
      for (const name of NAMES) {
        for (const shape of SHAPES) {
          const command = shape.replace("N", name);
          const v = decide(command);
          assert.ok(!/could not decide/.test(v.reason ?? ""), `${command}: ${v.reason}`);
        }
      }
    });
  }

  it("a name of the tables still has its handler beside them (rm -rf is still refused)", () => {
    assert.equal(verdict("rm -rf /etc").action, "block");
    assert.equal(verdict("constructor x && rm -rf /etc").action, "block");
  });
});
