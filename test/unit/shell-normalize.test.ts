// Normalization: the text the patterns see, and the variants that let position-sensitive
// reference patterns match every spelling of the same command without special-casing a rule.
import * as assert from "node:assert/strict";
import { normalizeMode } from "../../src/engine/shell/programs/files";
import { render, splitFlags } from "../../src/engine/shell/normalize";
import { sqlStatements } from "../../src/engine/shell/sql";
import { analyze, someText, texts } from "./shell-helpers";

describe("shell analysis: normalization", () => {
  it("program paths become names, quotes and escapes are removed", () => {
    for (const cmd of ["/usr/bin/git status", "\\git status", '"git" status', "'g'it status", 'g"i"t status', "./node_modules/.bin/../../git status"]) {
      assert.equal(analyze(cmd).commands[0].text, "git status", cmd);
    }
  });

  it("arguments are unquoted and single-spaced", () => {
    assert.equal(analyze("rm   -rf   'my dir'").commands[0].text, "rm -rf my dir");
  });

  it("git global options are dropped", () => {
    for (const cmd of ["git -C repo reset --hard", "git -c a=b -c c=d reset --hard", "git --no-pager reset --hard", "git --git-dir=.git --work-tree=. reset --hard", "git --git-dir .git -p reset --hard"]) {
      assert.equal(analyze(cmd).commands[0].text, "git reset --hard", cmd);
    }
  });

  it("bundled, separate and reordered short flags are alike", () => {
    const rmRf = /\brm\s+(-[^\s]*)*-[rRf]/;
    for (const cmd of ["rm -rf x", "rm -r -f x", "rm -fr x", "rm -i -r x", "rm -vi -f x", "rm x -r"]) assert.ok(someText(cmd, rmRf), cmd);
    const clean = /\bgit\s+clean\s+(-[^\s]*)*-[fd]/;
    for (const cmd of ["git clean -xf", "git clean -x -f", "git clean -q -d -f", "git clean -ffdx"]) assert.ok(someText(cmd, clean), cmd);
    assert.ok(someText("git branch -vD feature", /\bgit\s+branch\s+(-[^\s]*)*-D\b/));
    assert.ok(someText("git stash -q drop", /\bgit\s+stash\s+(clear|drop)\b/));
  });

  it("an operand after -- never becomes a flag", () => {
    assert.ok(!someText("rm -- -rf", /\brm\s+(-[^\s]*)*-[rRf]/), texts("rm -- -rf").join(" | "));
    assert.deepEqual(splitFlags(["-rf", "--", "-ab"]), ["-r", "-f", "--", "-ab"]);
  });

  it("the pathspec tail is offered first (`git checkout HEAD -- .`)", () => {
    assert.ok(someText("git checkout HEAD -- .", /\bgit\s+checkout\s+--\s*\./));
    assert.ok(someText("git restore --worktree .", /\bgit\s+restore\s+\./));
    assert.ok(someText("git restore -- .", /\bgit\s+restore\s+\./));
  });

  it("index-only restore and dry runs get no misleading variants", () => {
    assert.ok(!someText("git restore --staged .", /\bgit\s+restore\s+\./));
    assert.ok(!someText("git clean -nd", /\bgit\s+clean\s+(-[^\s]*)*-[fd]/));
    assert.ok(!someText("git clean --dry-run -x", /\bgit\s+clean\s+(-[^\s]*)*-[fd]/));
  });

  it("a force push by refspec is a force push", () => {
    assert.ok(someText("git push origin +main", /\bgit\s+push\s+.*--force(?!-with-lease)/));
    assert.ok(someText("git push origin +HEAD:refs/heads/x", /\bgit\s+push\s+.*--force(?!-with-lease)/));
    assert.ok(!someText("git push origin main", /--force/));
    assert.ok(!someText("git push --force-with-lease origin main", /\bgit\s+push\s+.*--force(?!-with-lease)/));
  });

  it("chmod modes are normalized to octal", () => {
    assert.equal(normalizeMode("0777"), "777");
    assert.equal(normalizeMode("a=rwx"), "777");
    assert.equal(normalizeMode("ugo+rwx"), "777");
    assert.equal(normalizeMode("u=rwx,g=rwx,o=rwx"), "777");
    assert.equal(normalizeMode("u+x"), undefined);
    assert.ok(someText("chmod 00777 f", /\bchmod\s+(-[^\s]+\s+)*777\b/));
    assert.ok(!someText("chmod 755 f", /777/));
  });

  it("render: variants are distinct and bounded", () => {
    const r = render({ head: ["x"], args: Array.from({ length: 60 }, (_, i) => `-${String.fromCharCode(97 + (i % 26))}${i}`) });
    assert.ok((r.variants ?? []).length <= 24);
    assert.equal(new Set(r.variants).size, (r.variants ?? []).length);
  });

  describe("SQL", () => {
    const stmts = (sql: string) => sqlStatements({ text: sql, base: 0 }).statements;
    it("upper-cases keywords, keeps identifiers, ends each statement with ;", () => {
      assert.deepEqual(stmts("delete from Users").map((s) => s.text), ["DELETE FROM Users;"]);
      assert.deepEqual(stmts("select 1;drop   table t").map((s) => s.text), ["SELECT 1;", "DROP TABLE t;"]);
    });
    it("drops comments and keeps string literals as they are", () => {
      assert.deepEqual(stmts("-- c\nselect 'drop table x' /* y */ from t").map((s) => s.text), ["SELECT 'drop table x' FROM t;"]);
    });
    it("offers unqualified, unquoted identifiers as variants", () => {
      const [s] = stmts('DELETE FROM "main"."users"');
      assert.ok(s.variants.includes("DELETE FROM users;"), JSON.stringify(s));
    });
    it("skips sqlite dot-commands but runs .shell", () => {
      const r = sqlStatements({ text: ".tables\n.shell rm -rf x\nselect 1", base: 0 });
      assert.deepEqual(r.statements.map((s) => s.text), ["SELECT 1;"]);
      assert.equal(r.shell[0].text.trim(), "rm -rf x");
    });
    it("DELETE without WHERE is caught by the reference pattern in any case and spelling", () => {
      const re = /\bDELETE\s+FROM\s+\w+\s*;/;
      for (const cmd of ["psql -c 'delete from t'", "sqlite3 db 'DELETE FROM t;'", "mysql -e 'Delete From `t`'", "duckdb -c 'delete from s.t'"]) assert.ok(someText(cmd, re), cmd);
      assert.ok(!someText("psql -c 'delete from t where id = 1'", re));
    });
  });
});
