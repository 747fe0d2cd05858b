// Issue 36, family 8: git plumbing that discards work, shown as the porcelain it amounts to (and a
// push that prunes the remote as the remote delete it is). Everyday plumbing first.
import * as assert from "node:assert/strict";
import { assertAllowed, defaultsWithout, judge } from "./defaults-helpers";

/** Each command gets `action` from rule `id`; without that rule it is allowed. */
function assertFamily(id: string, action: "ask" | "block", commands: string[], siblings: string[] = []): void {
  for (const command of commands) {
    const v = judge(command);
    assert.equal(v.action, action, `${command}: ${v.action} ${v.reason}`);
    assert.equal(v.rule?.id, id, command);
    assert.equal(judge(command, defaultsWithout(id, ...siblings)).action, "allow", `${command}: refused without ${id}`);
  }
}

describe("defaults: git plumbing that discards work (issue 36)", () => {
  it("passes plumbing that reads or only adds", () => {
    assertAllowed(["git read-tree HEAD", "git checkout-index -a --prefix=export/", "git update-ref refs/tags/v1 HEAD", "git worktree remove ../wt", "git worktree list", "git push origin main", "git fetch --prune", "git remote prune origin", "git rev-parse HEAD", "git cat-file -p HEAD"]);
  });

  it("asks or refuses what rewrites the worktree, moves refs or prunes the remote", () => {
    assertFamily("git-reset-hard", "block", ["git read-tree -u --reset HEAD", "git read-tree -m -u HEAD"]);
    assertFamily("git-checkout-dot", "ask", ["git checkout-index -a -f", "git checkout-index --all --force"], ["git-checkout-paths"]);
    assertFamily("git-branch-force-delete", "ask", ["git update-ref refs/heads/main HEAD~5", "git update-ref -d refs/heads/feature"]);
    assertFamily("git-switch-discard", "ask", ["git worktree remove --force ../wt", "git worktree remove -f ../feature"]);
    assertFamily("remote-destroy-code-host", "ask", ["git push --prune origin 'refs/heads/*:refs/heads/*'"]);
  });
});
