// The snapshot step on its own (issue 24): keeping one file, 10,000 files (hard links) and the
// uncommitted state of a 5,000-file repository, median and p95 of each; the agent's wait for
// 30,000 files under the default time budget (issue 37: past it, the snapshot stops); and what deciding a call
// WITHOUT a destructive effect costs with the destructive-effect facts (judge) beside deciding
// alone (decide, the step before them) — it must not grow.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decide } from "../../src/engine/decide";
import { judge } from "../../src/engine/judge";
import { analyzeCommand } from "../../src/engine/shell/analyze";
import { parseRules } from "../../src/engine/rules/parse";
import { normalizeToolCall } from "../../src/engine/toolcall";
import { destroysOf } from "../../src/engine/undo/destroys";
import { DEFAULT_SNAPSHOT_SETTINGS } from "../../src/core/snapshots/settings";
import { SnapshotStore } from "../../src/core/snapshots/store";
import { takeSnapshot } from "../../src/core/snapshots/take";
import { line, put, show } from "./report";
import { percentile, perItem, timeEach } from "./stats";

const p95 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 95);
const med = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

function timeSnapshot(label: string, key: string, runs: number, ws: string, env: NodeJS.ProcessEnv, command: string, setup: () => void): void {
  const ctx = { cwd: ws, home: os.homedir(), root: ws };
  const d = destroysOf(normalizeToolCall({ tool: "Bash", input: { command } }), analyzeCommand(command, ctx), ctx)!;
  const store = new SnapshotStore(env);
  const settings = { ...DEFAULT_SNAPSHOT_SETTINGS, timeBudgetMs: 60_000 };
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    setup();
    const t = process.hrtime.bigint();
    const o = takeSnapshot(d, { agent: "bench", tool: "Bash", command, folder: ws, cwd: ws }, { env, settings });
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (!("kept" in o)) throw new Error(`${label}: no snapshot (${JSON.stringify(o)})`);
    store.delete(o.kept.id);
  }
  put("snapshots", `${key}_median_ms`, med(ms), "ms");
  put("snapshots", `${key}_p95_ms`, p95(ms), "ms");
  line(`${label} (median / p95 of ${runs})`, `${show(med(ms), "ms")} / ${show(p95(ms), "ms")}`);
}

export function benchSnapshots(corpusCalls: { tool: string; input: Record<string, unknown> }[], rulesText: string, quick: boolean): void {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-bench-snap-")));
  const env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state") };
  try {
    const ws = path.join(tmp, "ws");
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, "one.txt"), "x".repeat(4096));
    timeSnapshot("snapshot of one file (rm one.txt: a hard link)", "one_file", quick ? 20 : 100, ws, env, "rm one.txt", () => undefined);

    const many = path.join(ws, "data");
    for (let d = 0; d < 100; d++) {
      fs.mkdirSync(path.join(many, `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(many, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
    }
    timeSnapshot("snapshot of 10,000 files (rm -r data: hard links)", "ten_thousand_files", quick ? 3 : 10, ws, env, "rm -r data", () => undefined);

    // The time bound (issue 37): 30,000 files under the default budget. Past it the snapshot stops
    // and says "not kept: too slow"; the figure is how long the agent waited either way.
    const big = path.join(ws, "big");
    for (let d = 0; d < 300; d++) {
      fs.mkdirSync(path.join(big, `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(big, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
    }
    {
      const command = "rm -r big";
      const ctx = { cwd: ws, home: os.homedir(), root: ws };
      const d = destroysOf(normalizeToolCall({ tool: "Bash", input: { command } }), analyzeCommand(command, ctx), ctx)!;
      const waits: number[] = [];
      let outcome = "";
      for (let i = 0; i < (quick ? 2 : 5); i++) {
        const t = process.hrtime.bigint();
        const o = takeSnapshot(d, { agent: "bench", tool: "Bash", command, folder: ws, cwd: ws }, { env, settings: DEFAULT_SNAPSHOT_SETTINGS });
        waits.push(Number(process.hrtime.bigint() - t) / 1e6);
        outcome = "kept" in o ? "kept" : "notKept" in o ? `not kept: ${o.notKept}` : "nothing";
        if ("kept" in o) new SnapshotStore(env).delete(o.kept.id);
      }
      put("snapshots", "thirty_thousand_files_wait_median_ms", med(waits), "ms");
      line(`30,000 files under the default ${DEFAULT_SNAPSHOT_SETTINGS.timeBudgetMs} ms budget (rm -r big): the agent's wait, median / max (${outcome})`, `${show(med(waits), "ms")} / ${show(Math.max(...waits), "ms")}`);
    }

    const repo = path.join(tmp, "repo");
    fs.mkdirSync(repo);
    for (let d = 0; d < 50; d++) {
      fs.mkdirSync(path.join(repo, `m${d}`));
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(repo, `m${d}`, `f${f}.ts`), `export const v${f} = ${d};\n`);
    }
    const git = (...a: string[]) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...a], { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "5000 files");
    let n = 0;
    // Twenty edited files and one new one each round: an afternoon's uncommitted work.
    const edit = () => {
      n++;
      for (let f = 0; f < 20; f++) fs.appendFileSync(path.join(repo, `m${f}`, "f0.ts"), `// edit ${n}\n`);
      fs.writeFileSync(path.join(repo, "new.ts"), `// new ${n}\n`);
    };
    timeSnapshot("snapshot of a 5,000-file repository's uncommitted state (reset --hard)", "git_5000_files", quick ? 5 : 20, repo, env, "git reset --hard", edit);

    // Calls without a destructive effect: deciding alone vs deciding + the facts (what judge adds).
    const rules = parseRules(rulesText).rules;
    const ctx = { cwd: "/home/dev/plume-factory", home: "/home/dev" };
    const plain = corpusCalls.filter((c) => {
      const norm = normalizeToolCall(c);
      const a = norm.kind === "bash" ? analyzeCommand(norm.command, ctx) : undefined;
      return (norm.kind === "bash" || norm.kind === "files") && decide(c, rules, ctx).action === "allow" && !destroysOf(norm, a, { ...ctx, root: ctx.cwd });
    });
    const reqs = plain.map((c) => ({ agent: "cli" as const, event: "PreToolUse", call: c, cwd: ctx.cwd }));
    const jctx = { folder: ctx.cwd, home: ctx.home };
    const rounds = quick ? 5 : 20;
    timeEach(plain, rounds, (c) => decide(c, rules, ctx));
    timeEach(reqs, rounds, (r) => judge(r, rules, jctx, "advisory"));
    const before = perItem(timeEach(plain, rounds, (c) => decide(c, rules, ctx)), plain.length);
    const after = perItem(timeEach(reqs, rounds, (r) => judge(r, rules, jctx, "advisory")), reqs.length);
    // The only work judge added for these calls: listing the (absent) destructive effects.
    const analysed = plain.map((c) => {
      const norm = normalizeToolCall(c);
      return { norm, a: norm.kind === "bash" ? analyzeCommand(norm.command, ctx) : undefined };
    });
    const dctx = { ...ctx, root: ctx.cwd };
    timeEach(analysed, rounds, (x) => destroysOf(x.norm, x.a, dctx));
    const facts = perItem(timeEach(analysed, rounds, (x) => destroysOf(x.norm, x.a, dctx)), analysed.length);
    put("snapshots", "plain_facts_median_us", facts.median, "µs");
    put("snapshots", "plain_decide_median_us", before.median, "µs");
    put("snapshots", "plain_judge_median_us", after.median, "µs");
    line(`no destructive effect: decide() alone (${plain.length} corpus calls), median / p99`, `${show(before.median, "µs")} / ${show(before.p99, "µs")}`);
    line(`no destructive effect: the facts step alone (destroysOf), median / p99`, `${show(facts.median, "µs")} / ${show(facts.p99, "µs")}`);
    // judge() is the whole decision step (decide, the facts, the target shown): compared with decide() alone.
    line(`no destructive effect: judge() (decide() + the facts + the target), median / p99`, `${show(after.median, "µs")} / ${show(after.p99, "µs")}`, { ratio: after.median / before.median, of: "decide() alone" });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
