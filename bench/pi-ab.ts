// Interleaved A/B of pi extensions: whole scripted pi 1.6.0 sessions of 50 Bash calls against
// `damage-control serve`, with no extension, the empty one (returns at once) and each extension
// file given, in turns (the order rotates each round), so a change to the pi extension can be
// compared with the build before it in the same minutes:
//   cp dist/pi-*.js /tmp/pi-before/   (built before the change, `node esbuild.js --production`)
//   node dist/bench/pi-ab.js --rounds=4 before=/tmp/pi-before/pi-extension.js after=dist/pi-extension.js
// An extension's pi-local-guard.js is the one beside it. Prints each variant's median session
// (and every session) and its added time per call over no extension.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { makeProject } from "../test/e2e/support/project";
import { piSession, writeEmptyPiExtension } from "./lib/agents";
import { median } from "./lib/report";
import { startServer, stopServer } from "./lib/servers";

const root = path.resolve(__dirname, "../..");
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const rounds = Number(arg("rounds", "4"));
const CALLS = 50;

async function main(): Promise<void> {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-pi-ab-"));
  const proj = makeProject({ name: "pi-ab", files: { "README.md": "pi-ab\n" } });
  const serve = await startServer([path.join(root, "dist/cli.js"), "serve", "--cwd", proj.dir, "--port", "0"], { ...process.env, DAMAGE_CONTROL_STATE_DIR: state });
  const runs: Record<string, number[]> = {};
  try {
    const env = { DAMAGE_CONTROL_STATE_DIR: state, DAMAGE_CONTROL_TOKEN: fs.readFileSync(path.join(state, "token"), "utf8").trim() };
    const variants: Record<string, { extensions?: string[]; refusedBy?: RegExp }> = { none: {}, empty: { extensions: [writeEmptyPiExtension(state)] } };
    for (const a of process.argv.slice(2).filter((x) => !x.startsWith("--"))) {
      const [label, file] = a.split("=");
      variants[label] = { extensions: [path.resolve(file)], refusedBy: /Damage Control/ };
    }
    await piSession({ cwd: proj.dir, calls: 2, env }); // warm-up: page cache, compile caches
    const names = Object.keys(variants);
    for (let r = 0; r < rounds; r++) {
      for (const name of [...names.slice(r % names.length), ...names.slice(0, r % names.length)]) {
        (runs[name] ??= []).push((await piSession({ cwd: proj.dir, calls: CALLS, env, ...variants[name] })).wallMs);
      }
      console.log(`round ${r + 1} [load ${os.loadavg()[0].toFixed(1)}]: ${names.map((n) => `${n} ${runs[n].at(-1)} ms`).join("  ")}`);
    }
  } finally {
    stopServer(serve.child);
    proj.remove();
    fs.rmSync(state, { recursive: true, force: true });
  }
  const none = median(runs.none);
  for (const [name, xs] of Object.entries(runs)) {
    console.log(`${name.padEnd(10)} ${median(xs)} ms (${xs.join(", ")}); per call over none: ${((median(xs) - none) / CALLS).toFixed(2)} ms`);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
