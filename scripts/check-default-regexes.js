// Measures how the embedded defaults' regexes backtrack, with the ReDoS checker recheck, and
// writes the table src/engine/rules/default-regex-degrees.json (regex → its worst case: 1 for
// linear, n for polynomial of degree n). The inline decisions (src/engine/inline-bound.ts) rely on
// every default being at most of degree 2, and test/unit/inline-bound.test.ts holds the defaults
// to this table: a default changed without running this script fails that test.
//   node scripts/check-default-regexes.js           check and write the table (≈ 45 s)
// The checker runs one regex at a time: run concurrently it times out and answers "unknown".
const fs = require("node:fs");
const path = require("node:path");
const { checkSync } = require("recheck");
const YAML = require("yaml");

const root = path.resolve(__dirname, "..");
const doc = YAML.parse(fs.readFileSync(path.join(root, "src/engine/rules/default-rules.yaml"), "utf8"));
const table = {};
let worst = 0;
for (const rule of doc.bashToolPatterns ?? []) {
  if (typeof rule.pattern !== "string") continue;
  const r = checkSync(rule.pattern, "", { timeout: 60_000 });
  const degree = r.status === "safe" ? 1 : r.status === "vulnerable" && r.complexity.type === "polynomial" ? r.complexity.degree : null;
  if (degree === null) {
    console.error(`${rule.id}: ${r.status}${r.complexity ? ` ${r.complexity.type}` : ""} — not bounded by a polynomial the checker can name`);
    process.exitCode = 1;
  }
  table[rule.pattern] = degree;
  worst = Math.max(worst, degree ?? Infinity);
}
fs.writeFileSync(path.join(root, "src/engine/rules/default-regex-degrees.json"), JSON.stringify(table, null, 2) + "\n");
console.log(`${Object.keys(table).length} default regexes, the worst of degree ${worst}`);
