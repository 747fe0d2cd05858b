// The scale optimisations (issue 17 §3) change speed, never answers: the bash-pattern prefilter
// must select exactly the rules that testing every regex selects, and the indexed unreachable
// finder must report exactly what the pairwise one reports. Checked on the corpus, the reference
// and default rules, the generated 1,000-rule file and generated regexes and path lists.
// No timing assertions here (the figures are `npm run bench`'s).
import * as assert from "node:assert/strict";
import * as fc from "fast-check";
import * as fs from "node:fs";
import * as path from "node:path";
import { CORPUS_CWD, CORPUS_HOME, corpusDir, loadCorpus } from "../../bench/lib/corpus";
import { generatedRules } from "../../bench/lib/generated";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import { findUnreachable, findUnreachableNaive } from "../../src/engine/rules/overlap";
import { parseRules } from "../../src/engine/rules/parse";
import { compilePathEntry, globMayMatchName, pathContainsMatch, pathMatches, type PathMatcher } from "../../src/engine/paths";
import { pathCandidates } from "../../src/engine/rules/path-index";
import { matchingCommandPatterns, matchingPatterns, matchingPatternsNaive, requiredLiteral } from "../../src/engine/rules/prefilter";
import { Spellings, textOf, variantsOfCommand, type Presented } from "../../src/engine/shell/normalize";
import { analyzeCommand } from "../../src/engine/shell/analyze";
import type { ExecutedCommand } from "../../src/engine/shell/types";
import type { BashPatternRule, PathRule, RuleSet } from "../../src/engine/types";
import { repoRoot } from "./support";

const dir = corpusDir(repoRoot);
const cases = loadCorpus(path.join(dir, "commands.jsonl"));
const reference = parseRules(fs.readFileSync(path.join(dir, "rules.yaml"), "utf8")).rules;
const thousand = parseRules(generatedRules(1000)).rules;
const ctx = { cwd: CORPUS_CWD, home: CORPUS_HOME };

/** Does a generated regex compile (the generators may build invalid ones)? */
function compiles(s: { source: string; flags: string }): boolean {
  try {
    new RegExp(s.source, s.flags);
    return true;
  } catch {
    return false;
  }
}

function ruleSet(patterns: { source: string; flags?: string; ask?: boolean }[]): RuleSet {
  const bashToolPatterns: BashPatternRule[] = patterns.map((p, i) => ({
    kind: "bashPattern",
    pattern: p.source,
    regex: new RegExp(p.source, p.flags ?? ""),
    reason: `rule ${i}`,
    ask: p.ask ?? false,
  }));
  return { bashToolPatterns, zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [] };
}

/** Every text decide() tests the patterns on, for each bash case of the corpus. */
function corpusTexts(): string[][] {
  const out: string[][] = [];
  for (const c of cases) {
    const command = (c.input as { command?: unknown }).command;
    if (typeof command !== "string") continue;
    out.push([command]);
    for (const e of analyzeCommand(command, ctx).commands) out.push([e.text, ...(variantsOfCommand(e) ?? [])]);
  }
  return out;
}

const names = (rules: BashPatternRule[]) => rules.map((r) => `${r.regex.flags}/${r.pattern}`);

describe("bash pattern prefilter", () => {
  it("reads the literal every match needs, and gives up where there is none", () => {
    const cases: [string, string, string | undefined][] = [
      ["\\bterraform\\s+destroy\\b", "", "terraform"],
      ["\\btool12\\s+(-[^\\s]*)*-x2\\b", "", "tool12"],
      ["git\\s+push\\s+--force", "", "--force"],
      ["rm|del", "", undefined], // top-level alternation
      ["(rm|del)\\s+-rf", "", "-rf"],
      ["colou?r", "", "colo"],
      ["ab*c", "", "a"],
      ["ab+c", "", "ab"],
      ["a{2}bcd", "", "bcd"],
      ["x{0,3}yz", "", "yz"],
      ["\\.env\\b", "", ".env"],
      ["\\k<n>", "", undefined],
      ["(?<n>ab)\\k<name>xy", "", "xy"],
      ["\\p{L}abc", "u", "abc"],
      ["\\u0041bc", "", "bc"],
      ["\\x41bc", "", "bc"],
      ["\\cJzz", "", "zz"],
      ["\\12ab", "", "ab"],
      ["[abc]def", "", "def"],
      ["[]ab", "", "ab"],
      ["(?=abc)d", "", "d"],
      ["(?!rm)ls", "", "ls"],
      [".*", "", undefined],
      ["^sudo ", "", "sudo "],
    ];
    for (const [source, flags, want] of cases) assert.equal(requiredLiteral(source, flags), want, `/${source}/${flags}`);
  });

  it("selects the same rules as every regex on every text: corpus × reference, default and 1,000 rules", () => {
    const texts = corpusTexts();
    assert.ok(texts.length > 200, `only ${texts.length} texts`);
    const mixed = ruleSet([
      ...thousand.bashToolPatterns.slice(0, 40).map((r) => ({ source: r.pattern, ask: r.ask })),
      ...reference.bashToolPatterns.map((r) => ({ source: r.pattern, flags: "i" })),
      ...defaultRules().bashToolPatterns.map((r) => ({ source: r.pattern, flags: r.regex.flags })),
    ]);
    let selected = 0;
    for (const rules of [reference, defaultRules(), thousand, mixed]) {
      for (const t of texts) {
        const want = matchingPatternsNaive(rules, t);
        assert.deepEqual(names(matchingPatterns(rules, t)), names(want), JSON.stringify(t));
        selected += want.length;
      }
    }
    assert.ok(selected > 50, "the corpus made some rules match (else the check proves little)");
  });

  it("the same verdicts as before on the whole corpus (decide with the reference rules)", () => {
    // The verdict of each case is the corpus's label or a known miss; the prefilter must not move
    // a single one: compare against decide() over rules whose prefilter is disabled (< 16 rules
    // each, so matchingPatterns takes the naive path).
    const chunks: RuleSet[] = [];
    for (let i = 0; i < reference.bashToolPatterns.length; i += 15) chunks.push({ ...reference, bashToolPatterns: reference.bashToolPatterns.slice(i, i + 15) });
    const rank = { allow: 0, ask: 1, block: 2 } as const;
    for (const c of cases) {
      const call = { tool: c.tool, input: c.input };
      const fast = decide(call, reference, ctx).action;
      const naive = chunks.map((r) => decide(call, r, ctx).action).reduce((a, b) => (rank[b] > rank[a] ? b : a), "allow" as "allow" | "ask" | "block");
      assert.equal(fast, naive, `${c.id}: ${JSON.stringify(c.input)}`);
    }
  });

  it("case folding beyond ASCII (the long s, the Kelvin sign) is not missed by the literal check, short lists and indexed", () => {
    for (const filler of [0, 20]) {
      const rules = ruleSet([...Array.from({ length: filler }, (_, i) => ({ source: `zz${i}q` })), { source: "\\bsudo\\b", flags: "iu" }, { source: "kill", flags: "iu" }]);
      for (const text of ["ſudo ls", "\u212aill 1", "SUDO", "sudo"]) {
        assert.deepEqual(names(matchingPatterns(rules, [text])), names(matchingPatternsNaive(rules, [text])), `${filler} rules before, ${text}`);
        assert.equal(matchingPatterns(rules, [text]).length, 1, text);
      }
    }
  });

  it("generated regexes and texts: the same rules as the naive path (short lists and indexed ones)", () => {
    const atom = fc.oneof(
      fc.constantFrom("a", "b", "r", "m", "-", " ", "/", ".", "K", "s", "ſ", "\u212a", "é"),
      fc.constantFrom("\\b", "\\s", "\\s+", "\\.", "\\-", "[ab]", "[^\\s]*", ".", "a?", "b*", "m+", "r{2}", "x{0,2}", "(ab|rm)", "(?:-r)?", "(?=a)", "^", "$", "\\u0061", "\\x2d"),
    );
    const regex = fc.record({
      source: fc.array(atom, { minLength: 1, maxLength: 8 }).map((a) => a.join("")),
      alt: fc.boolean(),
      flags: fc.constantFrom("", "i", "iu", "u", "m", "s"),
    });
    const text = fc.array(fc.constantFrom("a", "b", "r", "m", "-", " ", "/", ".", "k", "K", "S", "s", "ſ", "\u212a", "é", "rm", "ab", "-rf"), { maxLength: 20 }).map((a) => a.join(""));
    fc.assert(
      fc.property(fc.array(regex, { minLength: 1, maxLength: 40 }), fc.array(text, { minLength: 1, maxLength: 3 }), (specs, texts) => {
        const valid = specs
          .map((s) => ({ source: s.alt ? `${s.source}|zz` : s.source, flags: s.flags }))
          .filter(compiles);
        if (valid.length === 0) return;
        const rules = ruleSet(valid);
        assert.deepEqual(names(matchingPatterns(rules, texts)), names(matchingPatternsNaive(rules, texts)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("variants spelled out on demand", () => {
  // A command's variants are only spelled out and tested when a rule that missed its text could
  // match one (prefilter.ts matchingCommandPatterns): the rules selected must be those that
  // testing the text and every variant selects, for short lists (one by one) and long (indexed).
  const everyText = (rules: RuleSet, c: ExecutedCommand) => matchingPatternsNaive(rules, [c.text, ...(variantsOfCommand(c) ?? [])]);
  const rendered = (p: Presented): ExecutedCommand => ({ text: textOf(p), span, spellings: new Spellings(p, textOf(p)) });
  const span = { start: 0, end: 1 };

  it("generated commands and regexes: the same rules as testing every variant", () => {
    const word = fc.constantFrom("rm", "-rf", "-r", "-f", "-xvs", "-Rf", "--", "--force", "--hard", "+main", "./a", ".env", "/etc", "a b", "-", "é", "K", "src", "-n", "x.y", "/", ".");
    const presented: fc.Arbitrary<Presented> = fc.record({
      head: fc.constantFrom("rm", "git push", "x", "git clean").map((h) => h.split(" ")),
      args: fc.array(word, { maxLength: 6 }),
      fixedOrder: fc.boolean(),
      extra: fc.option(fc.array(fc.array(word, { maxLength: 4 }), { maxLength: 2 }), { nil: undefined }),
    });
    const atom = fc.oneof(
      fc.constantFrom("rm", "git", "push", "-f", "-r", "--force", "--", "./", "/e", ".e", " -", "-rf", "-x -v", "src", "main", "a", "K", "é", "-[rf]", "x"),
      fc.constantFrom("\\b", "\\s+", "\\s", "(-[^\\s]*)*", "[^\\s]*", ".*", "\\.", "(rm|x)", "(?!-n)", "$", "^", "\\S+"),
    );
    const regex = fc.record({ source: fc.array(atom, { minLength: 1, maxLength: 6 }).map((a) => a.join("")), flags: fc.constantFrom("", "i", "u") });
    fc.assert(
      fc.property(fc.array(regex, { minLength: 1, maxLength: 40 }), presented, (specs, p) => {
        const valid = specs.filter(compiles);
        if (valid.length === 0) return;
        const rules = ruleSet(valid);
        const c = rendered(p);
        assert.deepEqual(names(matchingCommandPatterns(rules, rendered(p))), names(everyText(rules, c)), JSON.stringify([c.text, variantsOfCommand(c), valid.map((v) => v.source)]));
      }),
      { numRuns: 4000 },
    );
  });

  it("the corpus's commands under the reference, default and 1,000 rules: the same rules", () => {
    let spelled = 0;
    let skipped = 0;
    for (const rules of [reference, defaultRules(), thousand]) {
      for (const c of cases) {
        if (typeof c.input.command !== "string") continue;
        for (const executed of analyzeCommand(c.input.command, ctx).commands) {
          const want = matchingPatternsNaive(rules, [executed.text, ...(variantsOfCommand(executed) ?? [])]);
          const fresh: ExecutedCommand = analyzeCommand(c.input.command, ctx).commands.find((x) => x.span.start === executed.span.start && x.text === executed.text)!;
          assert.deepEqual(names(matchingCommandPatterns(rules, fresh)), names(want), executed.text);
          if (fresh.spellings) {
            if (fresh.spellings.spelledOut) spelled++;
            else skipped++;
          }
        }
      }
    }
    // The check means something only if both happened: variants skipped and variants needed.
    assert.ok(skipped > 100 && spelled > 20, `skipped ${skipped}, spelled ${spelled}`);
  });
});

describe("unreachable rules, indexed", () => {
  const same = (rules: RuleSet) => assert.deepEqual(findUnreachable(rules), findUnreachableNaive(rules));

  it("reports what the pairwise check reports: reference, defaults, 1,000 rules", () => {
    for (const rules of [reference, defaultRules(), thousand]) same(rules);
    const twins = parseRules("bashToolPatterns:\n  - pattern: 'rm'\n    reason: r\n  - pattern: 'rm'\n    reason: r2\n    ask: true\n  - pattern: '.*'\n    reason: all\n  - pattern: 'x'\n    reason: x\n    ask: true\n").rules;
    assert.equal(findUnreachable(twins).length, 3);
    same(twins);
  });

  it("generated path lists: same findings, same order, same messages", () => {
    const entry = fc.constantFrom(".env", ".env*", "*.pem", "secret.txt", "a/", "a/b/", "a/b/c.txt", "a/*.md", "~/.ssh/", "~/.ssh/id_rsa", "/etc/", "/etc/passwd", "a", "b/", "{a,b}.txt", "!x", "#y", "a+(b)");
    const kinds: PathRule["kind"][] = ["zeroAccess", "readOnly", "noDelete"];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(0, 1, 2), entry), { maxLength: 24 }), (list) => {
        const rules: RuleSet = { bashToolPatterns: [], zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [] };
        list.forEach(([k, p], i) => {
          const rule: PathRule = { kind: kinds[k], path: p, range: { start: { line: i, character: 0 }, end: { line: i, character: 5 } } };
          (k === 0 ? rules.zeroAccessPaths : k === 1 ? rules.readOnlyPaths : rules.noDeletePaths).push(rule);
        });
        same(rules);
      }),
      { numRuns: 500 },
    );
  });
});

describe("path rule index", () => {
  // The matcher decide() runs on each entry (Judge.path): the index must never leave out an entry
  // for which it is true.
  const root = CORPUS_CWD;
  const hit = (m: PathMatcher, paths: string[], recursive: boolean, anywhere: boolean) =>
    paths.some((p) => pathMatches(m, p) || (recursive && pathContainsMatch(m, p)) || globMayMatchName(m, p, anywhere ? undefined : root));
  const compiled = (entries: string[]) => entries.map((e) => [e, compilePathEntry(e, { cwd: root, home: CORPUS_HOME, root })] as const);
  const superset = (list: readonly (readonly [string, PathMatcher])[], paths: string[], recursive: boolean) => {
    const picked = new Set(pathCandidates(list, paths, recursive));
    for (const anywhere of [true, false]) {
      for (const e of list) if (hit(e[1], paths, recursive, anywhere)) assert.ok(picked.has(e), `${e[0]} hits ${JSON.stringify(paths)} (recursive ${recursive}) but was left out`);
    }
    const order = pathCandidates(list, paths, recursive).map((e) => list.indexOf(e));
    assert.deepEqual(order, [...order].sort((a, b) => a - b), "candidates keep list order");
  };

  /** Every path the corpus touches: bash effects and file tool paths, resolved. */
  const corpusPaths = (() => {
    const out: { path: string; recursive: boolean }[] = [];
    for (const c of cases) {
      const command = (c.input as { command?: unknown }).command;
      if (typeof command === "string") for (const e of analyzeCommand(command, ctx).effects) out.push({ path: e.path, recursive: e.recursive });
      for (const k of ["file_path", "path", "notebook_path"]) {
        const v = (c.input as Record<string, unknown>)[k];
        if (typeof v === "string") out.push({ path: v.startsWith("/") ? v : `${root}/${v}`, recursive: false });
      }
    }
    return out;
  })();

  it("keeps every entry that hits a path the corpus touches (reference, defaults, 1,000 rules)", () => {
    assert.ok(corpusPaths.length > 150, `only ${corpusPaths.length} paths`);
    const lists = [reference, defaultRules(), thousand].flatMap((r) => [r.zeroAccessPaths, r.readOnlyPaths, r.noDeletePaths].map((l) => l.map((e) => e.path)));
    const all = [...new Set(lists.flat())];
    lists.push(all);
    let hits = 0;
    for (const entries of lists.filter((l) => l.length >= 16)) {
      const list = compiled(entries);
      for (const { path: p, recursive } of corpusPaths) {
        superset(list, [p], recursive);
        superset(list, [p], true);
        hits += list.filter((e) => hit(e[1], [p], recursive, true)).length;
      }
    }
    assert.ok(hits > 20, "some corpus paths hit some entries (else the check proves little)");
  });

  it("generated entries and paths: no hit left out", () => {
    const seg = fc.constantFrom("a", "b", ".env", "x.md", "secret.txt", "..", ".", "", "keep", ".ssh", "id_rsa", "*.md", ".en*", "{a,b}", "a+(b)", "[ab]");
    const entry = fc.array(seg, { minLength: 1, maxLength: 3 }).chain((parts) =>
      fc.constantFrom(parts.join("/"), parts.join("/") + "/", "/" + parts.join("/"), "~/" + parts.join("/"), parts[0]!),
    );
    const p = fc.array(seg, { minLength: 0, maxLength: 4 }).chain((parts) => fc.constantFrom(`${root}/${parts.join("/")}`, "/" + parts.join("/"), `${CORPUS_HOME}/${parts.join("/")}`, `${root}//${parts.join("/")}`));
    fc.assert(
      fc.property(fc.array(entry, { minLength: 16, maxLength: 40 }), fc.array(p, { minLength: 1, maxLength: 2 }), fc.boolean(), (entries, paths, recursive) => {
        const list = compiled(entries.filter((e) => e.trim() !== ""));
        if (list.length < 16) return;
        superset(list, paths, recursive);
      }),
      { numRuns: 400 },
    );
  });
});
