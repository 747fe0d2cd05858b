// The no-circles rule in eslint.config.mjs (eslint-rules/no-import-cycle.mjs): a module that
// reaches itself through its imports fails lint, type-only imports and type queries included;
// the same file as it stands in the tree passes (the control run).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { lint } from "./eslint-run";
import { repoRoot } from "./support";

const inTree = (file: string) => fs.readFileSync(path.join(repoRoot, file), "utf8");

describe("no import circles (local/no-import-cycle)", function () {
  this.timeout(240_000);

  // [file, a line that closes a circle through files already in the tree, the circle reported]
  const cases: [string, string, string, string][] = [
    [
      "a value import",
      "src/engine/powershell/to-bash.ts",
      `import { runCmd } from "./cmd";\nexport const used = runCmd;\n`,
      "src/engine/powershell/to-bash.ts → src/engine/powershell/cmd.ts → src/engine/powershell/to-bash.ts",
    ],
    [
      "an `import type`",
      "src/engine/shell/words.ts",
      `import type { Invocation } from "./runner";\nexport type Used = Invocation;\n`,
      "src/engine/shell/words.ts → src/engine/shell/runner.ts → src/engine/shell/words.ts",
    ],
    [
      "a type re-export",
      "src/install/check.ts",
      `export type { DoctorReport } from "./doctor";\n`,
      "src/install/check.ts → src/install/doctor.ts → src/install/check.ts",
    ],
    [
      "a type query two modules deep",
      "src/engine/shell/path-expr.ts",
      `export type Interpreters = typeof import("./programs/interpreters");\n`,
      "src/engine/shell/path-expr.ts → src/engine/shell/programs/interpreters.ts → src/engine/shell/inline.ts → src/engine/shell/path-expr.ts",
    ],
  ];
  for (const [what, file, closing, circle] of cases) {
    it(`${what} that closes a circle fails; ${file} as in the tree passes`, async () => {
      const text = inTree(file);
      const bad = await lint(file, `${text}\n${closing}`);
      assert.equal(bad.status, 1, "the circle passed lint");
      assert.match(bad.out, /local\/no-import-cycle/);
      assert.ok(bad.out.includes(circle), bad.out);
      const good = await lint(file, text);
      assert.equal(good.status, 0, good.out);
    });
  }
});
