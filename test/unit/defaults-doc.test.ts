// docs/defaults-list.md is generated from the embedded defaults (scripts/gen-defaults-doc.js):
// this fails when the YAML changed and the page was not regenerated, and when a rule is missing.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { defaultRules } from "../../src/engine/rules/defaults";
import { repoRoot } from "./support";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const gen = require(path.join(repoRoot, "scripts/gen-defaults-doc.js")) as { render(text: string): string; YAML_FILE: string; PAGE: string };

describe("docs/defaults-list.md (scripts/gen-defaults-doc.js)", () => {
  it("is the rendering of src/engine/rules/default-rules.yaml", () => {
    const page = fs.readFileSync(gen.PAGE, "utf8");
    assert.equal(page, gen.render(fs.readFileSync(gen.YAML_FILE, "utf8")), "docs/defaults-list.md is stale: run node scripts/gen-defaults-doc.js");
  });
  it("names every default rule id and path entry the engine loads", () => {
    const page = fs.readFileSync(gen.PAGE, "utf8");
    const rules = defaultRules();
    for (const p of rules.bashToolPatterns) assert.ok(page.includes(`| \`${p.id}\` |`), `missing ${p.id}`);
    for (const list of [rules.zeroAccessPaths, rules.readOnlyPaths, rules.noDeletePaths]) for (const e of list) assert.ok(page.includes(`- \`${e.path}\``), `missing ${e.path}`);
  });
});
