// The `package` tier of npm test: `npm run package` must produce the .vsix with no vsce warning
// and nothing but what the extension needs (scripts/package.js checks both), and the packaged
// CLI must answer. Then the development bundles are rebuilt for whatever runs next.
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
let passes = 0;
let failures = 0;
function check(name, fn) {
  try {
    fn();
    passes++;
    console.log(`  ✔ ${name}`);
  } catch (e) {
    failures++;
    console.log(`  ✖ ${name}: ${e.message}`);
  }
}

const pkg = require(path.join(root, "package.json"));
const vsix = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
/** The files in the .vsix, as scripts/package.js lists them (vsce ls, two-space indented). */
let packed = [];
check("npm run package: a .vsix, no vsce warnings, only the files it needs", () => {
  fs.rmSync(vsix, { force: true });
  const r = spawnSync(process.execPath, ["scripts/package.js"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr || r.stdout);
  if (!fs.existsSync(vsix)) throw new Error("no .vsix");
  process.stdout.write(r.stdout.split("\n").map((l) => `    ${l}`).join("\n") + "\n");
  packed = r.stdout.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.trim());
});
// The README is the marketplace front page: its links are the way into the manual.
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
/** Relative link and image targets of a Markdown text, without #anchors (http(s), mailto and pure anchors left out). */
const relativeTargets = (md) =>
  [...md.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith("#")).map((t) => t.split("#")[0]);
check("every docs/*.md is linked from the README with a plain relative link", () => {
  const targets = new Set(relativeTargets(readme));
  const pages = fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  const unlinked = pages.filter((p) => !targets.has(p));
  if (unlinked.length) throw new Error(`not linked from README.md: ${unlinked.join(", ")}`);
});
check("every relative link and image target of the README is packed in the .vsix", () => {
  if (!packed.length) throw new Error("no file list from npm run package");
  const missing = [...new Set(relativeTargets(readme))].filter((t) => !packed.includes(path.posix.normalize(t)));
  if (missing.length) throw new Error(`README targets not in the .vsix: ${missing.join(", ")}`);
});
check("the production CLI decides (damage-control check)", () => {
  const r = spawnSync(process.execPath, ["dist/cli.js", "check"], { cwd: root, encoding: "utf8", input: JSON.stringify({ tool: "bash", input: { command: "sudo rm -rf /" } }) });
  if (r.status !== 0 || !r.stdout.startsWith("block")) throw new Error(`got: ${r.stdout}${r.stderr}`);
});
check("the production extension bundle stays under 500 KB", () => {
  const kb = fs.statSync(path.join(root, "dist/extension.js")).size / 1024;
  if (kb > 500) throw new Error(`${kb.toFixed(0)} KB`);
});
check("the production bundles carry no test seam (DAMAGE_CONTROL_TEST_FAULT is compiled out)", () => {
  const bundles = fs.readdirSync(path.join(root, "dist")).filter((f) => f.endsWith(".js"));
  if (!bundles.includes("decider-worker.js")) throw new Error("dist/decider-worker.js is missing");
  const seamed = bundles.filter((f) => /DAMAGE_CONTROL_TEST_FAULT|DC_INJECT_FAULT/.test(fs.readFileSync(path.join(root, "dist", f), "utf8")));
  if (seamed.length) throw new Error(`seam found in ${seamed.join(", ")}`);
});
const rebuild = spawnSync(process.execPath, ["esbuild.js"], { cwd: root, stdio: "inherit" });
if (rebuild.status !== 0) failures++;
if (process.env.DC_STATS_FILE) fs.writeFileSync(process.env.DC_STATS_FILE, JSON.stringify({ passes, failures, pending: 0 }));
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
