// The sandbox runner's cost per command (issue 34, "Measure"): the same command (`true`) run the
// way an agent runs a shell call (its shell with -c), three ways, interleaved in the same run:
//   bare     sh -c 'true'
//   bwrap    sh -c 'bwrap <the policy's arguments> -- bash -c true'   (bubblewrap driven directly)
//   ours     sh -c '<state>/sandbox/run <id> true'                    (the rewritten call)
// Goal: ours ≤ 1.5× bwrap. The policy is the size of a real one (the guard's files, a few secrets
// and read-only folders in a project).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SandboxRunner } from "../../src/core/sandbox/runner";
import { shellQuote } from "../../src/engine/powershell/to-bash";
import type { SandboxPolicy } from "../../src/engine/sandbox/policy-types";
import { median } from "./report";

export interface SandboxFigures {
  bareMs: number;
  bwrapMs: number;
  oursMs: number;
  n: number;
}

export function benchSandboxCost(rounds: number, bwrap = "/usr/bin/bwrap"): SandboxFigures | undefined {
  if (!fs.existsSync(bwrap)) return undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-bench-sandbox-"));
  try {
    const ws = path.join(tmp, "ws");
    const state = path.join(tmp, "state");
    const files = [".env", ".env.local", "secrets/id_rsa", "config/app.yaml", "infra/main.tf", ".git/HEAD"];
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(ws, f)), { recursive: true });
      fs.writeFileSync(path.join(ws, f), "x\n");
    }
    fs.mkdirSync(state, { recursive: true });
    fs.writeFileSync(path.join(state, "token"), "t\n");
    const policy: SandboxPolicy = {
      version: 1,
      folder: ws,
      denyRead: [".env", ".env.local", "secrets"].map((p) => ({ path: path.join(ws, p), rule: p })).concat({ path: path.join(state, "token"), rule: "guard:token" }),
      denyWrite: ["config", "infra"].map((p) => ({ path: path.join(ws, p), rule: p })).concat({ path: state, rule: "guard:state" }),
      allowWrite: [],
    };
    const runner = new SandboxRunner(state, bwrap);
    const ours = runner.prepare(policy, "true").command;
    const direct = [bwrap, ...runner.plan(policy).args, "--", "/bin/bash", "-c", "true"].map(shellQuote).join(" ");
    const variants = { bare: "true", bwrap: direct, ours };
    const times: Record<keyof typeof variants, number[]> = { bare: [], bwrap: [], ours: [] };
    const once = (cmd: string) => {
      const t = process.hrtime.bigint();
      const r = spawnSync("/bin/sh", ["-c", cmd], { cwd: ws, stdio: "ignore" });
      if (r.status !== 0) throw new Error(`sandbox bench: \`${cmd}\` exited ${r.status}`);
      return Number(process.hrtime.bigint() - t) / 1e6;
    };
    for (const cmd of Object.values(variants)) once(cmd); // warm the page cache
    for (let i = 0; i < rounds; i++) for (const k of Object.keys(variants) as (keyof typeof variants)[]) times[k].push(once(variants[k]));
    return { bareMs: median(times.bare), bwrapMs: median(times.bwrap), oursMs: median(times.ours), n: rounds };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
