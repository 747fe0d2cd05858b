// Inline code given to interpreters and SQL clients: what it runs and touches is analysed, what it
// prints is not.
import * as assert from "node:assert/strict";
import { normalizeNumericMode } from "../../src/engine/shell/inline";
import { analyze, CWD, someText, texts } from "./shell-helpers";

const RM = /\brm\s+(-[^\s]*)*-[rRf]/;
const effect = (cmd: string, access: string, path: string) => analyze(cmd).effects.some((e) => e.access === access && e.path === path);

describe("shell analysis: interpreters and SQL", () => {
  describe("shell commands spawned by code", () => {
    const cases = [
      `python -c "import os; os.system('rm -rf x')"`,
      `python3 -c "import subprocess; subprocess.run(['rm', '-rf', 'x'])"`,
      `python3.12 -c "import subprocess as s; subprocess.check_call('rm -rf x', shell=True)"`,
      `node -e "require('child_process').execSync('rm -rf x')"`,
      `node -e "require('child_process').spawnSync('rm', ['-rf', 'x'])"`,
      `ruby -e 'system("rm -rf x")'`,
      "ruby -e '`rm -rf x`'",
      `perl -e 'system("rm", "-rf", "x")'`,
      "perl -e 'qx{rm -rf x}'",
      `php -r 'shell_exec("rm -rf x");'`,
      `awk 'BEGIN { system("rm -rf x") }'`,
      `python3 - <<'EOF'\nimport os\nos.system("rm -rf x")\nEOF`,
    ];
    for (const cmd of cases) it(JSON.stringify(cmd), () => assert.ok(someText(cmd, RM), texts(cmd).join(" | ")));
  });

  describe("interpreter-level recursive deletes are presented as rm -r -f", () => {
    const cases: [string, string][] = [
      [`python -c "import shutil; shutil.rmtree('build')"`, "build"],
      [`node -e "require('fs').rmSync('build', { recursive: true, force: true })"`, "build"],
      [`node -e "fs.rmdirSync('build', {recursive: true})"`, "build"],
      [`ruby -e 'require "fileutils"; FileUtils.rm_rf("build")'`, "build"],
      [`perl -MFile::Path -e 'rmtree("build")'`, "build"],
      [`perl -e 'use File::Path qw(remove_tree); remove_tree("build")'`, "build"],
    ];
    for (const [cmd, target] of cases) {
      it(JSON.stringify(cmd), () => {
        assert.ok(someText(cmd, RM), texts(cmd).join(" | "));
        assert.ok(analyze(cmd).effects.some((e) => e.access === "delete" && e.recursive && e.path === `${CWD}/${target}`));
      });
    }
    it("a non-recursive delete is a plain rm (not caught by rm -rf patterns)", () => {
      const cmd = `python -c "import os; os.remove('a.txt')"`;
      assert.ok(!someText(cmd, RM));
      assert.ok(texts(cmd).includes("rm a.txt"));
      assert.ok(effect(cmd, "delete", `${CWD}/a.txt`));
    });
  });

  describe("files opened by code", () => {
    it("python open for writing / reading", () => {
      assert.ok(effect(`python -c "open('out.txt', 'w').write('x')"`, "write", `${CWD}/out.txt`));
      assert.ok(effect(`python -c "open('out.txt', mode='a')"`, "write", `${CWD}/out.txt`));
      assert.ok(effect(`python -c "print(open('in.txt').read())"`, "read", `${CWD}/in.txt`));
      assert.ok(!effect(`python -c "print(open('in.txt').read())"`, "write", `${CWD}/in.txt`));
    });
    it("pathlib", () => {
      assert.ok(effect(`python -c "from pathlib import Path; Path('a.md').write_text('x')"`, "write", `${CWD}/a.md`));
      assert.ok(effect(`python -c "from pathlib import Path; Path('a.md').unlink()"`, "delete", `${CWD}/a.md`));
    });
    it("node fs", () => {
      assert.ok(effect(`node -e "require('fs').writeFileSync('a.json', '{}')"`, "write", `${CWD}/a.json`));
      assert.ok(effect(`node -e "require('fs').readFileSync('.env')"`, "read", `${CWD}/.env`));
      assert.ok(effect(`node -e "require('fs').unlinkSync('a')"`, "delete", `${CWD}/a`));
    });
    it("ruby and perl", () => {
      assert.ok(effect(`ruby -e 'File.write("a.txt", "x")'`, "write", `${CWD}/a.txt`));
      assert.ok(effect(`perl -e 'open(my $f, ">", "a.txt")'`, "write", `${CWD}/a.txt`));
      assert.ok(effect(`perl -e 'open(F, ">>a.txt")'`, "write", `${CWD}/a.txt`));
      assert.ok(effect(`perl -e 'unlink "a.txt"'`, "delete", `${CWD}/a.txt`));
    });
    it("any path-like literal is named (read)", () => {
      assert.ok(effect(`python -c "from dotenv import load_dotenv; load_dotenv('.env')"`, "read", `${CWD}/.env`));
    });
    it("printed text is not a path or a command", () => {
      const a = analyze(`python -c "print('rm -rf /')"`);
      assert.equal(a.effects.length, 0);
      assert.ok(!someText(`python -c "print('rm -rf /')"`, RM));
    });
  });

  describe("SQL clients", () => {
    const DROP = /\bDROP\s+TABLE\b/;
    const cases = [
      "sqlite3 db 'drop table t'",
      "sqlite3 -cmd 'drop table t' db",
      "sqlite3 -bail db 'select 1' 'drop table t'",
      "psql -c 'select 1' -c 'drop table t'",
      "psql --command='drop table t'",
      "psql -d app -U me -c 'Drop Table t'",
      "mysql -u root -e 'drop table t'",
      "mysql --execute 'drop table t'",
      "duckdb -c 'drop table t'",
      "duckdb my.db 'drop table t'",
      "echo 'drop table t' | sqlite3 db",
      "psql <<'SQL'\ndrop table t\nSQL",
      "mysql db <<< 'drop table t'",
    ];
    for (const cmd of cases) it(JSON.stringify(cmd), () => assert.ok(someText(cmd, DROP), texts(cmd).join(" | ")));
    it("SQL passed to a client is not the client's text", () => {
      assert.ok(texts("psql -c 'drop table t'").includes("psql -c …"));
    });
    it("SQL as data is not SQL", () => {
      assert.ok(!someText("grep -rn 'DROP TABLE' docs", DROP));
      assert.ok(!someText("echo 'drop table t' > notes.sql", DROP));
    });
  });

  it("numeric modes", () => {
    assert.equal(normalizeNumericMode("0o777"), "777");
    assert.equal(normalizeNumericMode("0777"), "777");
    assert.equal(normalizeNumericMode("511"), "777");
    assert.equal(normalizeNumericMode("0o644"), "644");
    assert.equal(normalizeNumericMode("mode"), undefined);
  });
});
