// Decisions made on the caller's thread (issue 26 §2): only those bounded in time by construction
// (engine/inline-bound.ts), the same answers as the worker's, and everything else still in the
// worker where the time limit can stop it. No timing assertions: the bound is shown by what is
// sent where, and by a ReDoS checker on the embedded defaults.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as fc from "fast-check";
import { BoundedDecider, INLINE_SLOW_MS, locateWorker, type InlineJudge } from "../../src/core/decider";
import { judgeHere } from "../../src/core/decider-worker";
import type { WireRequest } from "../../src/engine/agents/types";
import { callChars, decidableInline, INLINE_MAX_CHARS, rulesBoundedInline } from "../../src/engine/inline-bound";
import type { Judgement } from "../../src/engine/judge";
import { defaultRules } from "../../src/engine/rules/defaults";
import { mergeLayers } from "../../src/engine/rules/layers";
import { parseRules } from "../../src/engine/rules/parse";
import { CORPUS_CWD, CORPUS_HOME, corpusDir, loadCorpus } from "../../bench/lib/corpus";

const root = path.resolve(__dirname, "../../..");
const ctx = { folder: "/w", home: "/home/dev", root: "/w" };
const bash = (command: string): WireRequest => ({ agent: "claude", event: "PreToolUse", call: { tool: "bash", input: { command } }, cwd: "/w" });
const verdictOf = (j: Judgement) => (j.kind === "verdict" ? j.verdict : undefined);
/** The defaults with a user layer on top, as the rules store merges them. */
const withUser = (yaml: string) => mergeLayers([{ name: "default", rules: defaultRules(), trusted: true }, { name: "user", rules: parseRules(yaml).rules, trusted: true }]);

describe("inline decisions: which are bounded by construction", () => {
  it("the embedded defaults are; a rule set with a regex the project has not vetted is not", () => {
    assert.equal(rulesBoundedInline(defaultRules()), true);
    assert.equal(rulesBoundedInline(withUser("bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: slow\n")), false, "a user's regex");
    assert.equal(rulesBoundedInline(withUser("allow:\n  - command: '^(a|aa)+$'\n    reason: mine\n")), false, "a user's command exception");
    // The same regex as a default (same source and flags) runs the same way: vetted.
    const sudo = defaultRules().bashToolPatterns.find((r) => r.regex.source === "\\bsudo\\b")!;
    assert.equal(rulesBoundedInline(withUser(`bashToolPatterns:\n  - pattern: '${sudo.pattern}'\n    reason: again\n`)), true);
    assert.equal(rulesBoundedInline(withUser("bashToolPatterns:\n  - effect: destroy backups\n    reason: effects are literal\n")), true);
  });

  it("globs: up to three wildcards a segment and no extglob are bounded like the defaults", () => {
    assert.equal(rulesBoundedInline(withUser("zeroAccessPaths:\n  - 'secrets/**/*.key'\n  - '*.pem'\n")), true);
    assert.equal(rulesBoundedInline(withUser("zeroAccessPaths:\n  - '*a*b*c*d'\n")), false, "four wildcards in one segment");
    assert.equal(rulesBoundedInline(withUser("readOnlyPaths:\n  - '+(a|aa)*.txt'\n")), false, "extglob");
    assert.equal(rulesBoundedInline(withUser("toolNamePatterns:\n  - tool: 'mcp__*__drop_*'\n    reason: no drops\n")), true);
    assert.equal(rulesBoundedInline(withUser("toolNamePatterns:\n  - tool: 'mcp__*_*_*_*'\n    reason: too many stars\n")), false);
  });

  it("a call is small enough when all its text is at most INLINE_MAX_CHARS; a large one is not walked whole", () => {
    assert.equal(decidableInline(bash("npm run build"), defaultRules()), true);
    assert.equal(decidableInline(bash("x".repeat(INLINE_MAX_CHARS)), defaultRules()), false);
    const write: WireRequest = { agent: "claude", event: "PreToolUse", call: { tool: "write", input: { file_path: "a.txt", content: "y".repeat(10_000) } }, cwd: "/w" };
    assert.equal(decidableInline(write, defaultRules()), false, "a file's content");
    const many: WireRequest = { agent: "cline", event: "PreToolUse", calls: Array.from({ length: 100 }, () => ({ tool: "bash", input: { command: "ls -la" } })), cwd: "/w" };
    assert.equal(decidableInline(many, defaultRules()), false, "every part counts");
    assert.ok(callChars(many) < 100 * "ls -la".length, "counting stops past the limit");
  });

  it("every default regex is at most polynomial of degree 2 (the ReDoS checker's table): bounded on a bounded text", () => {
    // scripts/check-default-regexes.js runs recheck on each default and writes this table; a
    // default changed without running it is not in the table and fails here.
    const degrees = JSON.parse(fs.readFileSync(path.join(root, "src/engine/rules/default-regex-degrees.json"), "utf8")) as Record<string, number | null>;
    const patterns = defaultRules().bashToolPatterns.filter((r) => !r.effect);
    assert.ok(patterns.length > 40);
    for (const r of patterns) {
      assert.ok(r.pattern in degrees, `${r.id}: not checked (run node scripts/check-default-regexes.js)`);
      assert.ok(degrees[r.pattern] !== null && degrees[r.pattern]! <= 2, `${r.id}: degree ${degrees[r.pattern]}`);
    }
    // Tool-name globs compile to one .* per wildcard: the defaults' have at most two an alternative.
    for (const r of defaultRules().toolNamePatterns ?? []) assert.ok((r.tool.match(/\*/g) ?? []).length <= 2, r.tool);
  });

  it("the two defaults rewritten from degree 3 to 2 match exactly what they matched before", () => {
    const pairs: [RegExp, RegExp, string[], string[]][] = [
      [
        /\b(kubectl|oc)\s+(\S+\s+)*delete\s+((\S+\s+)*(ns|namespaces?|pvc|pv|persistentvolumes?|persistentvolumeclaims?|crds?|customresourcedefinitions?)(\s|\/|$)|(.*\s)?(--all|-A|--all-namespaces)(\s|=|$))/,
        defaultRules().bashToolPatterns.find((r) => r.id === "infra-delete-kubernetes")!.regex,
        ["", "kubectl ", "oc\t", "x kubectl "],
        ["kubectl", "delete", "deletex", "xdelete", " ", "  ", "\t", "pod", "ns", "pvc", "crd", "/", "-A", "--all", "=", "-n", "get", "namespaces", "x"],
      ],
      [
        /\bdb\.(\w+|getCollection\([^)]*\))\.(drop\(\s*\)|(deleteMany|remove)\(\s*(\{\s*\})?\s*\))/,
        defaultRules().bashToolPatterns.find((r) => r.id === "db-mongo-delete-all")!.regex,
        ["", "db.", "x db.users.", "db.getCollection('a')."],
        ["users", ".", "drop(", "deleteMany(", "remove(", "{", "}", " ", "\t", ")", "(", "'a'", "x"],
      ],
    ];
    for (const [before, after, heads, tokens] of pairs) {
      assert.notEqual(before.source, after.source);
      let matched = 0;
      fc.assert(
        fc.property(fc.constantFrom(...heads), fc.array(fc.constantFrom(...tokens), { maxLength: 12 }), (head, words) => {
          const text = head + words.join("");
          const was = before.test(text);
          if (was) matched++;
          assert.equal(after.test(text), was, JSON.stringify(text));
        }),
        { numRuns: 30_000 },
      );
      assert.ok(matched > 20, `the generator reaches matches (${matched})`);
    }
  });

  it("control: a user's catastrophic regex decided on a thread of its own does not finish (so it must go to the worker)", function () {
    this.timeout(30_000);
    const script = `const { judgeHere } = require(${JSON.stringify(locateWorker()!)});
      process.stdout.write("start\\n");`;
    // The worker bundle's own judge, on this process's main thread, with nothing to stop it.
    const probe = spawnSync(process.execPath, ["-e", `${script}
      const rules = { bashToolPatterns: [{ kind: "bashPattern", pattern: "^(a+)+$", regex: /^(a+)+$/, reason: "slow", ask: false }], zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [] };
      judgeHere({ agent: "cli", event: "PreToolUse", call: { tool: "bash", input: { command: "a".repeat(40) + "!" } } }, rules, { folder: "/w", home: "/h" }, "advisory");
      process.stdout.write("done\\n");`], { timeout: 3000, encoding: "utf8" });
    assert.match(probe.stdout, /start/);
    assert.doesNotMatch(probe.stdout, /done/, "the unbounded decision is still running when the 3 s are up");
    assert.equal(probe.signal, "SIGTERM");
  });
});

describe("inline decisions: the bounded decider", function () {
  this.timeout(60_000);
  const workerFile = locateWorker()!;

  it("a small call under the defaults is decided here, with the worker's answer; a user's regex goes to the worker and is still cut off", async () => {
    const d = new BoundedDecider(workerFile, 300, { inline: () => judgeHere, shareWhenBusy: false });
    try {
      assert.equal(verdictOf(await d.judge(bash("sudo rm -rf /"), defaultRules(), ctx, "advisory"))?.action, "block");
      assert.equal(verdictOf(await d.judge(bash("npm run build"), defaultRules(), ctx, "advisory"))?.action, "allow");
      assert.deepEqual({ inline: d.stats.inline, worker: d.stats.worker }, { inline: 2, worker: 0 });
      const slow = withUser("bashToolPatterns:\n  - pattern: '^(a+)+$'\n    reason: pathological\n");
      await assert.rejects(d.judge(bash("a".repeat(40) + "!"), slow, ctx, "advisory"), /longer than 300 ms/);
      assert.equal(d.stats.worker, 1, "the unvetted rule set went to the worker");
      assert.equal(verdictOf(await d.judge(bash("x".repeat(INLINE_MAX_CHARS + 1)), defaultRules(), ctx, "advisory"))?.action, "allow");
      assert.equal(d.stats.worker, 2, "a large call goes to the worker");
    } finally {
      d.close();
    }
  });

  it("the same judgements inline as in the worker, on the labelled corpus", async () => {
    const cases = loadCorpus(path.join(corpusDir(root), "commands.jsonl")).filter((_, i) => i % 3 === 0);
    const inline = new BoundedDecider(workerFile, 15_000, { inline: () => judgeHere, shareWhenBusy: false });
    const worker = new BoundedDecider(workerFile, 15_000);
    const c = { folder: CORPUS_CWD, home: CORPUS_HOME, root: CORPUS_CWD };
    try {
      let here = 0;
      for (const k of cases) {
        const req: WireRequest = { agent: "claude", event: "PreToolUse", call: { tool: k.tool, input: k.input }, cwd: CORPUS_CWD };
        const a = await inline.judge(req, defaultRules(), c, "advisory");
        const b = await worker.judge(req, defaultRules(), c, "advisory");
        assert.deepEqual(a, b, k.id);
        if (decidableInline(req, defaultRules())) here++;
      }
      assert.ok(here > cases.length / 2, `most corpus calls are small enough (${here} of ${cases.length})`);
      assert.equal(inline.stats.inline, here);
    } finally {
      inline.close();
      worker.close();
    }
  });

  it("an inline decision slower than INLINE_SLOW_MS sends its rule set to the worker from then on", async () => {
    const slowJudge: InlineJudge = (req, rules, c, posture) => {
      const until = Date.now() + INLINE_SLOW_MS + 20;
      while (Date.now() < until);
      return judgeHere(req, rules, c, posture);
    };
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    const d = new BoundedDecider(workerFile, 15_000, { inline: () => slowJudge, shareWhenBusy: false });
    try {
      const rules = parseRules("bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: no sudo\n").rules;
      assert.equal(rulesBoundedInline(rules), true);
      // The first decision of a rule set also compiles it: not counted.
      assert.equal(verdictOf(await d.judge(bash("sudo ls"), rules, ctx, "advisory"))?.action, "block");
      assert.equal(verdictOf(await d.judge(bash("sudo ls"), rules, ctx, "advisory"))?.action, "block");
      assert.equal(verdictOf(await d.judge(bash("sudo ls"), rules, ctx, "advisory"))?.action, "block");
      assert.deepEqual({ inline: d.stats.inline, worker: d.stats.worker }, { inline: 2, worker: 1 });
      await new Promise((r) => setImmediate(r));
      assert.ok(warnings.some((w) => /time-limited worker from now on/.test(w)), warnings.join("\n"));
    } finally {
      process.off("warning", onWarning);
      d.close();
    }
  });

  it("while a burst of calls keeps the thread nearly saturated, decisions go to the worker (the other core shares the load); a call after a pause is made here", async () => {
    const d = new BoundedDecider(workerFile, 15_000, { inline: () => judgeHere });
    const spin = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const call = () => d.judge(bash("ls"), defaultRules(), ctx, "advisory");
    try {
      await new Promise((r) => setTimeout(r, 30));
      await call();
      assert.deepEqual({ inline: d.stats.inline, worker: d.stats.worker }, { inline: 1, worker: 0 }, "idle: here");
      for (let i = 0; i < 5; i++) {
        spin(6);
        await call();
      }
      assert.ok(d.stats.worker >= 1, "calls 6 ms apart with nothing but work between them: the worker");
      // Behaviour change on purpose: one call after 300 ms of other work is no burst of calls, and
      // is made here (it was sent to the worker): reading the loop's utilization costs a thread
      // left cold by a pause tens of µs, and a lone call costs this thread no less through the hop.
      await new Promise((r) => setTimeout(r, 30));
      spin(300);
      const inline = d.stats.inline;
      await call();
      assert.equal(d.stats.inline, inline + 1, "a call after a pause: here");
    } finally {
      d.close();
    }
  });

  it("without a loader (or when the bundle has no judge) every decision goes to the worker", async () => {
    const none = new BoundedDecider(workerFile, 15_000);
    const broken = new BoundedDecider(workerFile, 15_000, {
      inline: () => {
        throw new Error("cannot load");
      },
    });
    try {
      for (const d of [none, broken]) {
        assert.equal(verdictOf(await d.judge(bash("sudo ls"), defaultRules(), ctx, "advisory"))?.action, "block");
        assert.deepEqual({ inline: d.stats.inline, worker: d.stats.worker }, { inline: 0, worker: 1 });
      }
    } finally {
      none.close();
      broken.close();
    }
  });

  it("prepare() loads the inline judge after the caller's turn, not in it (activation does not wait ≈ 30 ms for it)", async () => {
    let loads = 0;
    const d = new BoundedDecider(workerFile, 15_000, {
      inline: () => {
        loads++;
        return judgeHere;
      },
      shareWhenBusy: false,
    });
    try {
      d.prepare();
      assert.equal(loads, 0, "not during prepare()");
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      assert.equal(loads, 1, "right after");
      assert.equal(d.stats.inline, 1, "and warmed with one decision");
    } finally {
      d.close();
    }
  });

  it("the worker bundle exports its judge to a main thread without serving as a worker there", () => {
    const r = spawnSync(process.execPath, ["-e", `const m = require(${JSON.stringify(workerFile)}); console.log(typeof m.judgeHere)`], { encoding: "utf8", timeout: 20_000 });
    assert.equal(r.stdout.trim(), "function");
    assert.ok(fs.existsSync(workerFile));
  });
});
