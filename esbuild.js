// Bundles the three shipped programs (extension, CLI, pi extension) and the test/bench entry
// points. Shape follows microsoft/vscode-extension-samples/esbuild-sample: one context per
// output, `--production` minifies, `--watch` rebuilds. Type checking is `tsc --noEmit`, separate.
const esbuild = require("esbuild");
const fs = require("node:fs");
const path = require("node:path");

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");
const shippedOnly = process.argv.includes("--shipped");

/** Every `*.test.ts` under test/ (not test/fixtures), bundled one file each, so mocha runs plain JS. */
function testEntries() {
  const found = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "fixtures" && entry.name !== "node_modules") walk(full);
      } else if (/\.(test|suite|main)\.ts$/.test(entry.name)) {
        found.push(full);
      }
    }
  };
  walk("test");
  return found;
}

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  logLevel: "warning",
  legalComments: "none",
  loader: { ".yaml": "text" },
  define: {
    __DC_VERSION__: JSON.stringify(require("./package.json").version),
    // Test seams (DAMAGE_CONTROL_TEST_FAULT, src/core/decider.ts) exist only in development and
    // test bundles; --production compiles them out (scripts/check-package.js checks).
    __DC_TEST_SEAMS__: production ? "false" : "true",
  },
};

const shipped = [
  { entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
  { entryPoints: ["src/cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
  // Every decision runs in this worker, with a time limit (src/core/decider.ts).
  { entryPoints: ["src/core/decider-worker-main.ts"], outfile: "dist/decider-worker.js" },
  // The optional OpenTelemetry export (the @opentelemetry SDK), loaded at run time by
  // src/hookserver/telemetry-loader.ts only when an endpoint is configured.
  { entryPoints: ["src/hookserver/telemetry.ts"], outfile: "dist/telemetry.js" },
  // The panel's script (src/webview/, after vscode-extension-samples webview-view-sample), for the
  // webview's browser sandbox: no node, no vscode; it shares only src/views/panel/messages.ts.
  { entryPoints: ["src/webview/main.ts"], outfile: "dist/webview.js", platform: "browser", format: "iife", target: "es2022" },
  // Self-contained: pi loads it with jiti from its global extensions folder, with no node_modules beside it.
  // pi (jiti) wants the factory itself as the module's export (0.73 rejects `{ default: fn }`),
  // so the CommonJS export becomes the function, with `.default` kept for ESM-style loaders.
  {
    entryPoints: ["src/pi/extension.ts"],
    outfile: "dist/pi-extension.js",
    footer: { js: "if (typeof module.exports.default === 'function') { const f = module.exports.default; f.default = f; module.exports = f; }" },
  },
  // Its local guard (engine, rules store, decision worker), installed beside it and loaded by it
  // only when no endpoint answers: src/pi/extension.ts.
  { entryPoints: ["src/pi/local-guard.ts"], outfile: "dist/pi-local-guard.js" },
];

function devBuilds() {
  const builds = [];
  const benches = fs.existsSync("bench")
    ? fs.readdirSync("bench").filter((f) => f.endsWith(".ts")).map((f) => path.join("bench", f))
    : [];
  if (benches.length) builds.push({ entryPoints: benches, outdir: "dist/bench", external: ["vscode"] });
  const tests = testEntries();
  if (tests.length) {
    // PGlite loads its WASM next to its own module: the tests require it from node_modules.
    builds.push({ entryPoints: tests, outdir: "out", outbase: ".", external: ["vscode", "mocha", "playwright-core", "@electric-sql/pglite"] });
  }
  return builds;
}

/** The panel's icons: codicons' CSS and font, served from dist/ (no CDN, no node_modules in the .vsix). */
function copyCodicons() {
  const from = path.join(__dirname, "node_modules/@vscode/codicons/dist");
  const to = path.join(__dirname, "dist/codicons");
  fs.mkdirSync(to, { recursive: true });
  for (const f of ["codicon.css", "codicon.ttf"]) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

async function main() {
  const dev = !(shippedOnly || production);
  // The tiers run every bundle under out/test (scripts/list-tests.js): a test deleted from test/
  // must not keep running from an old bundle, nor a bench script removed from bench/.
  if (dev && !watch) for (const dir of ["out", "dist/bench"]) fs.rmSync(path.join(__dirname, dir), { recursive: true, force: true });
  const builds = dev ? [...shipped, ...devBuilds()] : shipped;
  const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...common, ...b })));
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  copyCodicons();
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  const cli = "dist/cli.js";
  if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
