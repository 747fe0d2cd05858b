// The layer rule in eslint.config.mjs: a deliberate upward import fails lint; the same file
// importing downward passes (the control run).
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { repoRoot } from "./support";

interface LintMessage {
  ruleId: string | null;
  message: string;
}
interface ESLintApi {
  lintText(text: string, opts: { filePath: string }): Promise<{ messages: LintMessage[] }[]>;
}
// ESLint from the repository's node_modules at run time (a computed path: esbuild leaves it out of the bundle).
const eslintModule = path.join(repoRoot, "node_modules", "eslint");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ESLint } = require(eslintModule) as { ESLint: new (o: { cwd: string }) => ESLintApi };
const eslint = new ESLint({ cwd: repoRoot });

/** status 1 when the text has a lint error (as the CLI exits), else 0. */
async function lint(filePath: string, text: string): Promise<{ status: number; out: string }> {
  const [result] = await eslint.lintText(text, { filePath: path.join(repoRoot, filePath) });
  return { status: result.messages.length > 0 ? 1 : 0, out: result.messages.map((m) => `${m.ruleId}: ${m.message}`).join("\n") };
}

describe("layer rule (ESLint no-restricted-imports)", function () {
  this.timeout(240_000);

  const cases: [string, string, string][] = [
    ["src/engine/zz-upward.ts", "../core/guard", "./types"],
    ["src/engine/agents/zz-upward.ts", "../../hookserver/server", "../judge"],
    ["src/core/zz-upward.ts", "../views/settings", "../engine/judge"],
    ["src/pi/zz-upward.ts", "../hookserver/server", "../core/guard"],
    ["src/hookserver/zz-upward.ts", "../install/claude", "../core/guard"],
  ];
  for (const [file, upward, downward] of cases) {
    it(`${file}: importing ${upward} fails, importing ${downward} passes`, async () => {
      const bad = await lint(file, `import * as m from "${upward}";\nexport const used = m;\n`);
      assert.equal(bad.status, 1, bad.out);
      assert.match(bad.out, /no-restricted-imports/);
      const good = await lint(file, `import * as m from "${downward}";\nexport const used = m;\n`);
      assert.equal(good.status, 0, good.out);
    });
  }

  it("the engine may not do I/O", async () => {
    const bad = await lint("src/engine/zz-io.ts", `import * as fs from "node:fs";\nexport const used = fs;\n`);
    assert.equal(bad.status, 1, bad.out);
    assert.equal((await lint("src/engine/zz-io.ts", `import { posix } from "node:path";\nexport const used = posix;\n`)).status, 0);
  });
});
