// Runs inside the extension host (see index.suite.ts): the extension under test is loaded from
// this repo (extensionDevelopmentPath) and activates on startup.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

const pkgPath = path.resolve(__dirname, "../../../../package.json");
const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8"));
const id = `${pkg.publisher}.${pkg.name}`;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

suite("activation", () => {
  test(`${id} is installed from this repo`, () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext, `extension ${id} not found`);
    assert.equal(fs.realpathSync(ext.extensionPath), fs.realpathSync(path.dirname(pkgPath)));
  });

  test(`${id} activates on its own (onStartupFinished)`, async () => {
    const ext = vscode.extensions.getExtension(id)!;
    assert.ok(await until(() => ext.isActive, 20_000), "extension did not activate within 20 s");
  });

  test("runs in a VS Code that satisfies engines.vscode", () => {
    const [major, minor] = vscode.version.split(".").map(Number);
    const [wantMajor, wantMinor] = String(pkg.engines.vscode).replace(/^\^/, "").split(".").map(Number);
    assert.ok(major > wantMajor || (major === wantMajor && minor >= wantMinor), `${vscode.version} < ${pkg.engines.vscode}`);
  });
});
