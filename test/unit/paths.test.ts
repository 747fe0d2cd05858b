import * as assert from "node:assert/strict";
import { compilePathEntry, globBase, pathContainsMatch, pathMatches, resolvePath } from "../../src/engine/paths";

const ctx = { cwd: "/home/dev/proj/src", home: "/home/dev", root: "/home/dev/proj" };
const m = (entry: string) => compilePathEntry(entry, ctx);

describe("paths", () => {
  describe("resolvePath", () => {
    it("resolves relative paths against cwd and folds . and ..", () => {
      assert.equal(resolvePath("a.txt", ctx), "/home/dev/proj/src/a.txt");
      assert.equal(resolvePath("../secrets/./.env", ctx), "/home/dev/proj/secrets/.env");
      assert.equal(resolvePath("/etc//passwd", ctx), "/etc/passwd");
    });
    it("expands ~, $HOME and ${HOME}", () => {
      assert.equal(resolvePath("~/.ssh/id_rsa", ctx), "/home/dev/.ssh/id_rsa");
      assert.equal(resolvePath("~", ctx), "/home/dev");
      assert.equal(resolvePath("$HOME/.aws", ctx), "/home/dev/.aws");
      assert.equal(resolvePath("${HOME}/.aws/credentials", ctx), "/home/dev/.aws/credentials");
      assert.equal(resolvePath("$HOMEX/a", ctx), "/home/dev/proj/src/$HOMEX/a");
    });
    it("accepts file:// URLs and Windows separators", () => {
      assert.equal(resolvePath("file:///home/dev/proj/.env", ctx), "/home/dev/proj/.env");
      assert.equal(resolvePath("sub\\dir\\x", ctx), "/home/dev/proj/src/sub/dir/x");
    });
    it("an empty path is no path", () => {
      assert.equal(resolvePath("", ctx), undefined);
    });
  });

  describe("entries", () => {
    it("a name without / matches that file name in any folder", () => {
      assert.equal(pathMatches(m(".env"), "/home/dev/proj/.env"), true);
      assert.equal(pathMatches(m(".env"), "/elsewhere/deep/.env"), true);
      assert.equal(pathMatches(m(".env"), "/home/dev/proj/.env.example"), false);
      assert.equal(pathMatches(m(".env"), "/home/dev/proj/.envrc"), false);
    });
    it("* is a wildcard within a name", () => {
      assert.equal(pathMatches(m("*.pem"), "/x/certs/server.pem"), true);
      assert.equal(pathMatches(m("*.pem"), "/x/certs/server.pem.txt"), false);
      assert.equal(pathMatches(m("*.key"), "/home/dev/proj/certs/server.key"), true);
    });
    it("a trailing / is a folder and everything under it, anchored at the root", () => {
      const f = m("adws/adw_modules/");
      assert.equal(f.shape, "folder");
      assert.equal(pathMatches(f, "/home/dev/proj/adws/adw_modules"), true);
      assert.equal(pathMatches(f, "/home/dev/proj/adws/adw_modules/x/y.py"), true);
      assert.equal(pathMatches(f, "/home/dev/proj/adws/adw_modules_old/x.py"), false);
      assert.equal(pathMatches(f, "/other/adws/adw_modules/x.py"), false);
    });
    it("~ anchors at home", () => {
      assert.equal(pathMatches(m("~/.ssh/"), "/home/dev/.ssh/id_rsa"), true);
      assert.equal(pathMatches(m("~/.ssh/"), "/home/dev/proj/.ssh/id_rsa"), false);
      assert.equal(pathMatches(m("~/.pi/agent/auth.json"), "/home/dev/.pi/agent/auth.json"), true);
    });
    it("a path with / and a wildcard is a glob anchored at the root, covering what is inside a match", () => {
      const g = m("adws/adw_*.py");
      assert.equal(g.shape, "glob");
      assert.equal(pathMatches(g, "/home/dev/proj/adws/adw_build.py"), true);
      assert.equal(pathMatches(g, "/home/dev/proj/adws/adw_modules/x.py"), false);
      assert.equal(pathMatches(g, "/home/dev/proj/adws/sub/adw_build.py"), false);
      assert.equal(pathMatches(m(".claude/settings*.json"), "/home/dev/proj/.claude/settings.local.json"), true);
    });
    it("a folder operation reaches protected entries inside it", () => {
      assert.equal(pathContainsMatch(m("adws/adw_data/"), "/home/dev/proj/adws"), true);
      assert.equal(pathContainsMatch(m("adws/adw_data/"), "/home/dev/proj"), true);
      assert.equal(pathContainsMatch(m("adws/adw_data/"), "/home/dev/proj/src"), false);
      assert.equal(pathContainsMatch(m("adws/adw_*.py"), "/home/dev/proj/adws"), true);
      assert.equal(pathContainsMatch(m("~/.ssh/"), "/home/dev"), true);
      assert.equal(pathContainsMatch(m(".env"), "/home/dev/proj"), false, "names cannot be known without listing");
    });
  });

  it("globBase keeps the wildcard-free folder prefix", () => {
    assert.equal(globBase("src/**/*.ts"), "src");
    assert.equal(globBase("*.json"), ".");
    assert.equal(globBase("/home/dev/.ssh/*"), "/home/dev/.ssh");
    assert.equal(globBase("a/b/c.txt"), "a/b");
  });
});
