// Paths interpreter code builds from known parts (src/engine/shell/path-expr.ts): the vocabulary,
// each language's join semantics, and that anything outside it is no value at all.
import * as assert from "node:assert/strict";
import type { Language } from "../../src/engine/shell/inline-language";
import { evalPathExpression } from "../../src/engine/shell/path-expr";

const roots = { home: "/home/dev", cwd: "/home/dev/app" };
const ev = (lang: Language, e: string) => evalPathExpression(e, lang, roots);

describe("path expressions in interpreter code", () => {
  it("home and working folders, in each language's spelling", () => {
    for (const [lang, e] of [
      ["node", "os.homedir()"],
      ["node", "require('os').homedir()"],
      ["node", "process.env.HOME"],
      ["node", "process.env['HOME']"],
      ["python", "Path.home()"],
      ["python", "os.path.expanduser('~')"],
      ["python", "os.environ['HOME']"],
      ["python", "os.getenv('HOME')"],
      ["ruby", "Dir.home"],
      ["ruby", "ENV['HOME']"],
    ] as const) assert.equal(ev(lang, e), "/home/dev", `${lang}: ${e}`);
    for (const [lang, e] of [["node", "process.cwd()"], ["node", "__dirname"], ["python", "os.getcwd()"], ["python", "Path.cwd()"], ["ruby", "Dir.pwd"]] as const) assert.equal(ev(lang, e), "/home/dev/app", `${lang}: ${e}`);
  });

  it("concatenation, template literals and the joins, with each language's rule for an absolute part", () => {
    assert.equal(ev("node", "os.homedir() + '/.ssh/' + 'id_rsa'"), "/home/dev/.ssh/id_rsa");
    assert.equal(ev("node", "`${os.homedir()}/.aws/credentials`"), "/home/dev/.aws/credentials");
    assert.equal(ev("node", "path.join(os.homedir(), '.ssh', '..', '.aws')"), "/home/dev/.aws");
    // Node's path.join keeps going past an absolute part; Python's joins restart there.
    assert.equal(ev("node", "path.join('/a', '/b')"), "/a/b");
    assert.equal(ev("python", "os.path.join('/a', '/b')"), "/b");
    assert.equal(ev("node", "path.resolve('..', 'x')"), "/home/dev/x");
    assert.equal(ev("python", "Path.home() / '.ssh' / 'id_rsa'"), "/home/dev/.ssh/id_rsa");
    assert.equal(ev("python", "Path.home().joinpath('.aws', 'config')"), "/home/dev/.aws/config");
    assert.equal(ev("python", "Path('~/.ssh').expanduser()"), "/home/dev/.ssh");
    assert.equal(ev("ruby", "File.join(Dir.home, '.ssh')"), "/home/dev/.ssh");
    assert.equal(ev("ruby", "File.expand_path('~/.netrc')"), "/home/dev/.netrc");
  });

  it("anything outside the vocabulary is no value: a variable, an unknown call, an f-string, an escape", () => {
    for (const [lang, e] of [
      ["node", "base + '/x'"],
      ["node", "path.join(os.homedir(), name)"],
      ["node", "os.tmpdir() + '/x'"],
      ["python", "f'{home}/.ssh'"],
      ["python", "'a' 'b'"],
      ["python", "'a\\\\b'"],
      ["node", "`${name}/x`"],
      ["python", "join('a', 'b') + x"],
    ] as const) assert.equal(ev(lang, e), undefined, `${lang}: ${e}`);
    // `/` joins only in Python (pathlib); elsewhere it is division.
    assert.equal(ev("node", "os.homedir() / 'x'"), undefined);
  });

  it("nesting deeper than any real path expression is no value, and costs no stack", () => {
    assert.equal(ev("python", "(".repeat(50_000) + "'x'" + ")".repeat(50_000)), undefined);
    assert.equal(ev("node", "path.join(".repeat(20_000) + "'a'" + ")".repeat(20_000)), undefined);
    assert.equal(ev("python", "((('x')))"), "x");
  });
});
