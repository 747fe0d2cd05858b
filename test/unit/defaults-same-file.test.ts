// Issue 36, family 7: the same file by another path — a process's view of the root or of its
// working folder, the name in another case, a loop over a glob that reaches a zero-access name.
// Everyday first: loops over ordinary globs, listings.
import * as assert from "node:assert/strict";
import { defaultRules } from "../../src/engine/rules/defaults";
import { assertAllowed, judge } from "./defaults-helpers";

describe("defaults: the same secret by another path (issue 36)", () => {
  it("passes loops over ordinary globs and listings", () => {
    assertAllowed(["for f in *.ts; do wc -l $f; done", "for f in src/*.py; do python -m py_compile \"$f\"; done", "for d in */; do ls $d; done", "find . -name '*.ts'", "cat /proc/self/status", "cat README.MD"]);
  });

  it("refuses a search for a secret's shape across the tree, and a delete through a link made in the same call", () => {
    for (const [command, id] of [
      ["grep -r 'API_KEY' .", "remote-read-secret"],
      ["rg -uu SECRET .", "remote-read-secret"],
      ["grep -rl 'sk-' . | head", "remote-read-secret"],
      ["ln -s /etc /tmp/e && rm -rf /tmp/e/", "rm-recursive-force"],
      ["ln -s /home/dev/plume-factory /tmp/p && rm -rf /tmp/p/", "rm-recursive-force"],
    ]) {
      const v = judge(command);
      assert.equal(v.action, "block", `${command}: ${v.action} ${v.reason}`);
      assert.equal(v.rule?.id, id, command);
    }
    // Controls: the same search narrowed to a source folder or to file names; a link to build output.
    assertAllowed(["grep -r 'API_KEY' src/", "grep -rn --include='*.ts' 'process.env.API_KEY' .", "grep -r TODO .", "ln -s /home/dev/plume-factory/dist /tmp/d && rm -rf /tmp/d/"]);
  });

  it("refuses a zero-access file reached through /proc, another case, or a loop over a glob", () => {
    for (const command of [
      "cat /proc/self/root/home/dev/.ssh/id_rsa",
      "cat /proc/1/root/home/dev/.aws/credentials",
      "cat /proc/self/cwd/.env",
      "cat .ENV",
      "cat .Env.Local",
      "base64 SERVER.PEM",
      "for f in .e*; do cat $f; done",
      "for f in *.pem; do cat \"$f\"; done",
    ]) {
      const v = judge(command);
      assert.equal(v.action, "block", `${command}: ${v.action} ${v.reason}`);
      // Control: without the zero-access list the same command passes (the spelling is what is caught).
      assert.equal(judge(command, { ...defaultRules(), zeroAccessPaths: [] }).action, "allow", `${command}: refused without the zero-access list`);
    }
  });

  it("refuses a glob whose folder segment can expand into a zero-access folder (~/.ss?/id_*)", () => {
    assertAllowed(["cat src/*/index.ts", "cat ~/.*rc", "ls ~/.config", "wc -l ~/projects/*/README.md"]);
    for (const command of ["cat ~/.ss?/id_*", "cat ~/.s?h/id_rsa", "cat ~/.[s]sh/id_rsa", "cat ~/.ss*/config", "cat /home/dev/.ss?/id_ed25519", "cp -r ~/.s* /tmp/x"]) {
      const v = judge(command);
      assert.equal(v.action, "block", `${command}: ${v.action} ${v.reason}`);
    }
    // Control: the same glob shape into an ordinary folder passes.
    assert.equal(judge("cat ~/.nv?/init.lua").action, "allow");
  });
});
