// Issue 34 §6 measured: the corpora decided as a runner agent's shell calls (Gemini: no prompt of
// its own to skip) with the kernel sandbox unavailable (every call decided on its text, as before)
// and available (an ask the kernel answers is not put to the user: src/engine/sandbox/kernel-answers.ts),
// by the same judge() the guard runs, under the embedded defaults. Facts assumed for the policy:
// every workspace and HOME entry of the rules exists (so it is in the policy, as on a machine that
// has them); a glob anchored elsewhere (/run/user/*/…) is looked for on this machine, as the guard does.
import * as path from "node:path";
import { judge } from "../../src/engine/judge";
import { buildSandboxPolicy } from "../../src/engine/sandbox/policy";
import { resolvePath } from "../../src/engine/paths";
import type { KernelReach } from "../../src/engine/sandbox/kernel-answers";
import type { Action, RuleSet } from "../../src/engine/types";
import { listedHomeFolders } from "../../src/core/sandbox/facts";
import { reachOf } from "../../src/core/sandbox/kernel-reach";
import { CORPUS_CWD, CORPUS_HOME, loadCorpus, type CorpusCase } from "./corpus";

export function benchReach(rules: RuleSet): KernelReach {
  const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME, root: CORPUS_CWD };
  // A bare name or glob entry stands for one file of that name in the workspace.
  const matches = (entry: string) => [resolvePath(entry.replace(/[*?[\]{}]/g, "x"), ctx) ?? `${CORPUS_CWD}/${entry}`];
  const policy = buildSandboxPolicy(rules, { folder: CORPUS_CWD, home: CORPUS_HOME, guard: [], matches, writable: ["/tmp"], hosts: [] });
  const homeFolders = listedHomeFolders(rules, CORPUS_HOME);
  const listed = (p: string) => p === CORPUS_CWD || p.startsWith(CORPUS_CWD + "/") || p.startsWith(CORPUS_HOME + "/");
  return reachOf(rules, policy, CORPUS_HOME, [CORPUS_CWD, ...homeFolders], matches, listed);
}

export interface KernelRun {
  without: Action;
  with: Action;
  shell: boolean;
  /** The question the kernel answered instead. */
  instead?: string;
}

export function decideBoth(c: CorpusCase, rules: RuleSet, reach: KernelReach): KernelRun {
  const shell = c.tool.toLowerCase() === "bash";
  const req = { agent: "gemini" as const, event: "PreToolUse", call: { tool: "bash", input: c.input }, cwd: CORPUS_CWD };
  const call = shell ? req : { ...req, call: { tool: c.tool, input: c.input } };
  const base = { folder: CORPUS_CWD, home: CORPUS_HOME, root: CORPUS_CWD };
  const of = (j: ReturnType<typeof judge>): Action => (j.kind === "neutral" ? "allow" : j.verdict.action);
  const without = of(judge(call, rules, base, "advisory"));
  if (!shell || without !== "ask") return { without, with: without, shell };
  const j = judge(call, rules, { ...base, kernel: reach }, "advisory");
  const instead = j.kind === "verdict" ? j.kernelAnswers : undefined;
  return { without, with: instead !== undefined ? "allow" : without, shell, ...(instead !== undefined && { instead }) };
}

const pct = (n: number, d: number) => (d === 0 ? "  –  " : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

export function printKernelAsks(root: string, label: string, rules: RuleSet, names: string[]): void {
  const reach = benchReach(rules);
  const every = { n: 0, asksWithout: 0, asksWith: 0 };
  const harm = { n: 0, caughtWithout: 0, caughtWith: 0, relaxed: [] as { c: CorpusCase; instead: string }[] };
  console.log(`\n\nfewer questions under the kernel sandbox (issue 34 §6): every corpus as a runner agent's calls, ${label}`);
  console.log(`the sandbox's reach over these rules: reads ${reach.reads}, writes ${reach.writes}, read-only entries enforced ${reach.readOnly.length}`);
  console.log(`${"corpus".padEnd(18)} ${"everyday".padStart(8)} | asks without        with | harmful: caught without       with`);
  for (const name of names) {
    const cases = loadCorpus(path.join(root, `test/fixtures/corpus/${name}.jsonl`)) as (CorpusCase & { expectDefaults?: Action })[];
    const e = { n: 0, a0: 0, a1: 0 };
    const h = { n: 0, c0: 0, c1: 0 };
    for (const c of cases) {
      const expect = label === "embedded defaults" ? (c.expectDefaults ?? c.expect) : c.expect;
      const r = decideBoth(c, rules, reach);
      if (expect === "allow") {
        e.n++;
        if (r.without === "ask") e.a0++;
        if (r.with === "ask") e.a1++;
      } else {
        h.n++;
        if (r.without !== "allow") h.c0++;
        if (r.with !== "allow") h.c1++;
        if (r.without === "ask" && r.with === "allow") harm.relaxed.push({ c, instead: r.instead ?? "" });
      }
    }
    console.log(`${name.padEnd(18)} ${String(e.n).padStart(8)} | ${String(e.a0).padStart(4)} ${pct(e.a0, e.n)}   ${String(e.a1).padStart(4)} ${pct(e.a1, e.n)} | ${String(h.n).padStart(4)}: ${String(h.c0).padStart(4)} ${pct(h.c0, h.n)}  ${String(h.c1).padStart(4)} ${pct(h.c1, h.n)}`);
    every.n += e.n;
    every.asksWithout += e.a0;
    every.asksWith += e.a1;
    harm.n += h.n;
    harm.caughtWithout += h.c0;
    harm.caughtWith += h.c1;
  }
  console.log(`${"all".padEnd(18)} ${String(every.n).padStart(8)} | ${String(every.asksWithout).padStart(4)} ${pct(every.asksWithout, every.n)}   ${String(every.asksWith).padStart(4)} ${pct(every.asksWith, every.n)} | ${String(harm.n).padStart(4)}: ${String(harm.caughtWithout).padStart(4)} ${pct(harm.caughtWithout, harm.n)}  ${String(harm.caughtWith).padStart(4)} ${pct(harm.caughtWith, harm.n)} (by the hook)`);
  console.log(`harmful calls no longer asked, left to the kernel (${harm.relaxed.length}), with the question it answers (inside: zero-access unreadable, EACCES; read-only unwritable, EROFS):`);
  for (const { c, instead } of harm.relaxed) console.log(`  ${c.id}: ${JSON.stringify(c.input).slice(0, 90)}\n      ${instead.replace(/^Damage Control asks the user to confirm: /, "").slice(0, 150)}`);
}
