// The rules in force for a folder: the file, else the defaults; a broken file never replaces
// the last good rules, also across a restart.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RulesStore } from "../../src/core/rules-store";

const GOOD = "bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\n";
const BROKEN = "bashToolPatterns:\n  - pattern: '('\n    reason: oops\n";

describe("rules store", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-store-"));
    file = path.join(dir, ".pi/damage-control-rules.yaml");
    fs.mkdirSync(path.dirname(file));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  // The workspace layer's patterns (the floor of defaults is merged below them since issue 15).
  const patterns = (s: RulesStore) => s.current().rules.bashToolPatterns.filter((r) => r.layer === "workspace").map((r) => r.pattern);
  const allPatterns = (s: RulesStore) => s.current().rules.bashToolPatterns.map((r) => r.pattern);

  it("no file: the embedded defaults, not broken", () => {
    const s = new RulesStore(dir);
    assert.equal(s.current().source, "default");
    assert.equal(s.current().broken, false);
    assert.ok(allPatterns(s).length > 10);
  });

  it("a broken save keeps the last good rules in force, and says where it broke", () => {
    fs.writeFileSync(file, GOOD);
    const s = new RulesStore(dir);
    assert.deepEqual(patterns(s), ["\\bmake\\b"]);
    fs.writeFileSync(file, BROKEN + "# edited\n");
    const state = s.current();
    assert.equal(state.broken, true);
    assert.equal(state.source, "file");
    assert.deepEqual(patterns(s), ["\\bmake\\b"], "last good rules in force");
    assert.equal(state.diagnostics[0].range.start.line, 1, "where: line 2");
    fs.writeFileSync(file, GOOD.replace("make", "cmake"));
    assert.deepEqual(patterns(s), ["\\bcmake\\b"]);
    assert.equal(s.current().broken, false);
  });

  it("across a restart too: the saved last good copy, not the defaults", () => {
    fs.writeFileSync(file, GOOD);
    new RulesStore(dir).current();
    fs.writeFileSync(file, BROKEN);
    const restarted = new RulesStore(dir);
    assert.equal(restarted.current().source, "last-good");
    assert.equal(restarted.current().broken, true);
    assert.deepEqual(patterns(restarted), ["\\bmake\\b"]);
  });

  it("broken with no good copy ever: the defaults, marked broken", () => {
    fs.writeFileSync(file, BROKEN);
    const s = new RulesStore(dir);
    assert.equal(s.current().source, "default");
    assert.equal(s.current().broken, true);
  });

  it("a deleted file: the documented fallback, the embedded defaults", () => {
    fs.writeFileSync(file, GOOD);
    const s = new RulesStore(dir);
    fs.rmSync(file);
    assert.equal(s.current().source, "default");
    assert.ok(allPatterns(s).some((p) => p.includes("rm")));
  });

  it("the rules file and the state folder are always read-only (implicit entries)", () => {
    fs.writeFileSync(file, "zeroAccessPaths: []\n");
    const ro = new RulesStore(dir).current().rules.readOnlyPaths;
    assert.ok(ro.some((r) => r.implicit && r.path === file));
    assert.ok(ro.some((r) => r.implicit && r.path === path.join(dir, ".damage-control") + "/"));
  });
});
