// The layer rule in eslint.config.mjs: a deliberate upward import fails lint; the same file
// importing downward passes (the control run).
import * as assert from "node:assert/strict";
import { lint } from "./eslint-run";

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
