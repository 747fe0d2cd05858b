// Issue 34, item 7: everyday work runs the same inside our sandbox. A real project (a git
// repository with a package.json), two identical copies, the same everyday commands in each: one
// run bare, one through the runner exactly as a rewritten agent call runs (`sh -c '<runner> <id>
// <command>'`) under a policy like the rules make (.env unreadable, config/ and the guard's state
// read-only). Same exit codes, same output, same files afterwards. npm installs from a registry on
// 127.0.0.1 (a tiny mock serving one package); caches and temp files under the HOME and TMPDIR.
import * as assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { SandboxRunner } from "../../src/core/sandbox/runner";
import type { SandboxPolicy } from "../../src/engine/sandbox/policy-types";
import { isolatedEnv } from "./support/env";
import { startLoopbackServer, sendJson, type LoopbackServer } from "./support/loopback-server";
import { makeProject } from "./support/project";
import { REPO } from "./support/guarded";
import { useCleanups } from "./support/suite";
import { tempDir } from "./support/tmp";
import { needsSandbox } from "../support/needs-sandbox";

const addCleanup = useCleanups();
const ESBUILD = path.join(REPO, "node_modules/.bin/esbuild");

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "everyday", version: "1.0.0", private: true, scripts: { test: "node test.js", build: "node build.js" } }, null, 2) + "\n",
  "test.js": 'const assert = require("node:assert");\nassert.equal(1 + 1, 2);\nconsole.log("tests ok");\n',
  "build.js": 'const fs = require("node:fs");\nfs.mkdirSync("dist", { recursive: true });\nfs.writeFileSync("dist/out.js", fs.readFileSync("src/messy.js", "utf8").toUpperCase());\nconsole.log("built");\n',
  "src/messy.js": "function   f( a,b ){return a+b}\nconsole.log( f(1,2) )\n",
  "README.md": "# everyday\n",
  ".env": "API_KEY=never-show-this\n",
  "config/app.yaml": "port: 1\n",
  // A zero-access file is git-ignored, as a real project has it: `git add -A` must read what it indexes, and inside the sandbox it cannot.
  ".gitignore": "node_modules/\n.env\n",
};

/** The everyday commands, in order (each depends on the one before, as in a working session). */
const COMMANDS = (registry: string): string[] => [
  `npm install leftpad-local --registry ${registry}/ --no-audit --no-fund --loglevel=error`,
  "node -e \"console.log(require('leftpad-local')('7', 3))\"",
  "npm test",
  "npm run build && cat dist/out.js",
  `${ESBUILD} src/messy.js --outfile=src/messy.js --allow-overwrite --log-level=warning && cat src/messy.js`,
  "git add -A && git commit -qm work && git branch feature && git branch --list && git rev-parse 'HEAD^{tree}'",
  "echo change >> README.md && git stash -q && git stash list | wc -l && git status --porcelain && git stash show -p",
  "t=$(mktemp) && echo temp > \"$t\" && cat \"$t\" && rm \"$t\"",
  "mkdir -p ~/.cache/tool && echo cached > ~/.cache/tool/c && cat ~/.cache/tool/c",
  "node -e 'process.exit(3)'",
  "ls no-such-file",
];

/** A registry on 127.0.0.1 serving one package, `leftpad-local` 1.0.0, built with `npm pack`. */
async function startRegistry(): Promise<LoopbackServer> {
  const src = tempDir("leftpad-src");
  fs.writeFileSync(path.join(src, "package.json"), JSON.stringify({ name: "leftpad-local", version: "1.0.0", main: "index.js" }));
  fs.writeFileSync(path.join(src, "index.js"), 'module.exports = (s, n) => String(s).padStart(n, "0");\n');
  const pack = spawnSync("npm", ["pack", "--silent"], { cwd: src, encoding: "utf8" });
  assert.equal(pack.status, 0, pack.stderr);
  const tgz = fs.readFileSync(path.join(src, pack.stdout.trim()));
  const integrity = "sha512-" + createHash("sha512").update(tgz).digest("base64");
  const shasum = createHash("sha1").update(tgz).digest("hex");
  let url = "";
  const server = await startLoopbackServer((req, res) => {
    if (req.path.startsWith("/leftpad-local/-/")) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": tgz.length });
      return void res.end(tgz);
    }
    if (req.path === "/leftpad-local") {
      return sendJson(res, 200, { name: "leftpad-local", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "leftpad-local", version: "1.0.0", main: "index.js", dist: { tarball: `${url}/leftpad-local/-/leftpad-local-1.0.0.tgz`, integrity, shasum } } } });
    }
    sendJson(res, 404, { error: "not found" });
  });
  url = server.url;
  return server;
}

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Hashes of every file in the project (node_modules and .git's object store included), paths relative. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[path.relative(dir, p)] = createHash("sha1").update(fs.readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

describe("sandbox runner: everyday work runs the same inside (issue 34, item 7)", function () {
  this.timeout(300_000);
  before(function () {
    needsSandbox(this, "bwrap");
  });

  it("npm install from a 127.0.0.1 registry, the project's tests and build, a formatter, git add/commit/branch/stash, temp files, caches under HOME, failing commands: same exit codes, output and files", async () => {
    const registry = await startRegistry();
    addCleanup(() => registry.close());
    const state = tempDir("dc-state");
    const runner = new SandboxRunner(state, "/usr/bin/bwrap");
    // Asynchronous: the registry answers from this process, which a synchronous spawn would block.
    const sh = (command: string, cwd: string, env: NodeJS.ProcessEnv) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile("/bin/sh", ["-c", command], { cwd, env, encoding: "utf8", timeout: 120_000 }, (e, stdout, stderr) => resolve({ status: e ? (typeof e.code === "number" ? e.code : null) : 0, stdout, stderr }));
      });
    const run = async (sandboxed: boolean): Promise<{ outcomes: Outcome[]; dir: string; home: string }> => {
      const proj = makeProject({ files: FILES, name: sandboxed ? "inside" : "outside" });
      addCleanup(() => proj.remove());
      const home = tempDir(sandboxed ? "home-inside" : "home-outside");
      fs.mkdirSync(path.join(home, "tmp"));
      const env = isolatedEnv({ home, tmpdir: path.join(home, "tmp"), gitCeiling: path.dirname(proj.dir), extra: { GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z", npm_config_cache: path.join(home, ".npm"), npm_config_update_notifier: "false" } });
      env.PATH = `${path.dirname(process.execPath)}:${env.PATH ?? "/usr/bin:/bin"}`;
      const policy: SandboxPolicy = {
        version: 1,
        folder: proj.dir,
        denyRead: [{ path: proj.path(".env"), rule: ".env" }],
        denyWrite: [
          { path: proj.path("config"), rule: "config/" },
          { path: state, rule: "guard:state" },
        ],
        allowWrite: [],
      };
      const outcomes: Outcome[] = [];
      for (const c of COMMANDS(registry.url)) {
        const r = await sh(sandboxed ? runner.prepare(policy, c).command : c, proj.dir, env);
        // Paths and npm's own timing ("added 1 package in 345ms") are not results.
        const norm = (s: string) => s.split(proj.dir).join("<proj>").split(home).join("<home>").replace(/ in \d+(\.\d+)?m?s\b/g, " in <t>");
        outcomes.push({ status: r.status, stdout: norm(r.stdout), stderr: norm(r.stderr) });
      }
      return { outcomes, dir: proj.dir, home };
    };
    const outside = await run(false);
    const inside = await run(true);
    const cmds = COMMANDS(registry.url);
    for (let i = 0; i < cmds.length; i++) {
      assert.equal(inside.outcomes[i]!.status, outside.outcomes[i]!.status, `exit status of \`${cmds[i]}\`: inside ${JSON.stringify(inside.outcomes[i])} outside ${JSON.stringify(outside.outcomes[i])}`);
      assert.equal(inside.outcomes[i]!.stdout, outside.outcomes[i]!.stdout, `output of \`${cmds[i]}\``);
    }
    // The commands did what they do (not two identical failures).
    assert.deepEqual(outside.outcomes.map((o) => o.status), [0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2]);
    assert.match(outside.outcomes[1]!.stdout, /^007$/m);
    // The same files afterwards: the installed package and lock file, the build, the formatted source.
    // Commits differ only by the first commit's time (the two copies were made seconds apart): the
    // committed tree's hash and the stash's patch are compared in the output above.
    const a = tree(outside.dir);
    const b = tree(inside.dir);
    const differ = Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k] && !/^\.git\/(index|logs\/|ORIG_HEAD|objects\/|refs\/)/.test(k));
    assert.deepEqual(differ, [], "files that differ between the bare run and the sandboxed run");
    assert.ok(b["node_modules/leftpad-local/index.js"] && b["package-lock.json"] && b["dist/out.js"] && b[".git/refs/heads/feature"] && b[".git/refs/stash"]);
    assert.deepEqual(Object.keys(tree(path.join(inside.home, ".cache"))), Object.keys(tree(path.join(outside.home, ".cache"))));
  });
});
