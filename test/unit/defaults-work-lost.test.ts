// Default rule family: work lost without rm (ask; dropping a stash is a block).
// Incidents: anthropics/claude-code#39394 (git checkout over uncommitted changes), #62710 (git
// checkout on a file), #16098 (git checkout -- .), #85879 (git stash wiped 170 files); policy on
// a plain `git switch main` in docs/defaults.md.
import { assertAllowed, assertDecidedBy, assertFamily } from "./defaults-helpers";

describe("defaults: work lost without rm (ask)", () => {
  it("switching with --force or --discard-changes", () => {
    assertFamily("git-switch-discard", "ask", ["git switch --discard-changes main", "git switch -f feature/login", "git checkout -f main", "git checkout --force release", "git -C packages/core switch --discard-changes main"]);
  });

  it("git restore of paths (not --staged alone)", () => {
    assertFamily("git-restore-paths", "ask", ["git restore src/app.ts", "git restore --source=HEAD~2 src/lib/", "git restore --staged --worktree src/app.ts", "git restore -p src/app.ts", "git restore -- src/"]);
  });

  it("git checkout -- paths, and git checkout of a file", () => {
    assertFamily("git-checkout-paths", "ask", ["git checkout -- src/components/", "git checkout HEAD -- src/render.cpp", "git checkout origin/main -- packages/core/src/index.ts", "git checkout -q -- README.md"], ["git-checkout-file"]);
    assertFamily("git-checkout-file", "ask", ["git checkout src/render.cpp", "git checkout package.json", "git checkout HEAD~1 src/app.tsx"]);
  });

  it("git stash drop / clear stays a block, also after git stash in one line", () => {
    assertDecidedBy({ id: "git-stash-drop" }, "block", ["git stash && git stash drop", "git stash drop stash@{1}", "git stash clear", "git stash push -m wip; git stash drop"]);
  });

  it("passes the routine work around them (a plain switch is left to git, which refuses to overwrite local changes)", () => {
    assertAllowed([
      "git switch main",
      "git checkout main",
      "git switch -",
      "git switch -c fix/header",
      "git checkout -b feature/orders",
      "git checkout -b fix/app.ts",
      "git checkout v1.2",
      "git checkout release/2.0",
      "git restore --staged src/app.ts",
      "git restore -S .",
      "git stash",
      "git stash pop",
      "git stash list",
      "git worktree add ../wt feature/login",
      "git diff -- src/",
      "git log -- src/app.ts",
    ]);
  });
});
