// The fast paths of issue 26 §3 change speed, never answers: each is held to the general code it
// stands for (or to the code it replaced, kept here as the reference), on generated inputs. The
// corpus-wide "same decisions" check is rules-scale.test.ts and corpus.test.ts; no timing here.
import * as assert from "node:assert/strict";
import * as fc from "fast-check";
import { Minimatch } from "minimatch";
import { decide, sameWords } from "../../src/engine/decide";
import { segmentsOf, segmentTest } from "../../src/engine/paths";
import { literalGate, matchingCommandPatterns, matchingPatternsNaive } from "../../src/engine/rules/prefilter";
import { commandException } from "../../src/engine/rules/layers";
import { parseRules } from "../../src/engine/rules/parse";
import { handledProgram, handledPrograms, programFactsOf, programOf } from "../../src/engine/shell/dispatch";
import { EFFECT_TABLE } from "../../src/engine/shell/programs/table";
import { REMOTE_TABLE } from "../../src/engine/remote/table";
import { Spellings, textOf, variantsOfCommand, type Presented } from "../../src/engine/shell/normalize";
import type { ExecutedCommand } from "../../src/engine/shell/types";
import { shapedArg, type Arg } from "../../src/engine/shell/words";
import type { BashPatternRule, Exception, RuleSet } from "../../src/engine/types";

function ruleSet(patterns: { source: string; flags: string }[]): RuleSet {
  const bashToolPatterns: BashPatternRule[] = patterns.map((p, i) => ({ kind: "bashPattern", pattern: p.source, regex: new RegExp(p.source, p.flags), reason: `rule ${i}`, ask: false }));
  return { bashToolPatterns, zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [] };
}

const compiles = (s: { source: string; flags: string }) => {
  try {
    new RegExp(s.source, s.flags);
    return true;
  } catch {
    return false;
  }
};

describe("decide() fast paths: the same answers as the general code", () => {
  it("literalGate: true exactly when the text contains one of the literals (regex characters escaped)", () => {
    const ch = fc.constantFrom("a", "b", "-", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/", "\\", "^", "$", " ", "…", "é");
    const str = (max: number) => fc.array(ch, { maxLength: max }).map((a) => a.join(""));
    fc.assert(
      fc.property(fc.array(str(4).filter((s) => s !== ""), { maxLength: 6 }), str(12), (literals, text) => {
        assert.equal(literalGate(literals)(text), literals.some((l) => text.includes(l)), JSON.stringify({ literals, text }));
      }),
      { numRuns: 5000 },
    );
  });

  it("matchingCommandPatterns, short lists (literal gate, one pass over text and source): the rules testing every text and variant selects", () => {
    const word = fc.constantFrom("rm", "-rf", "-f", "--force", "--", "+main", "./a", "a.b", "a$b", "(x)", "a|b", "/etc", "-", "é", "K", "…", "-n", "x-y");
    const presented: fc.Arbitrary<Presented> = fc.record({
      head: fc.constantFrom("rm", "git push", "x").map((h) => h.split(" ")),
      args: fc.array(word, { maxLength: 5 }),
      fixedOrder: fc.boolean(),
      extra: fc.option(fc.array(fc.array(word, { maxLength: 3 }), { maxLength: 2 }), { nil: undefined }),
    });
    // Literals with regex characters in them (`a\.b`, `a\$b`, `\(x\)`, `a\|b`, `x\-y`) and none.
    const atom = fc.constantFrom("rm", "git", "push", "-f", "--force", "a\\.b", "a\\$b", "\\(x\\)", "a\\|b", "x\\-y", "\\/etc", "main", "K", "é", "\\b", "\\s+", ".*", "(rm|x)", "(?!-n)", "$", "^");
    const regex = fc.record({ source: fc.array(atom, { minLength: 1, maxLength: 4 }).map((a) => a.join("")), flags: fc.constantFrom("", "", "i") });
    fc.assert(
      fc.property(fc.array(regex, { minLength: 1, maxLength: 15 }), presented, (specs, p) => {
        const rules = ruleSet(specs.filter(compiles));
        if (rules.bashToolPatterns.length === 0) return;
        const text = textOf(p);
        const c: ExecutedCommand = { text, span: { start: 0, end: 1 }, spellings: new Spellings(p, text) };
        const want = matchingPatternsNaive(rules, [text, ...(variantsOfCommand({ spellings: new Spellings(p, text) }) ?? [])]);
        assert.deepEqual(matchingCommandPatterns(rules, c).map((r) => r.pattern), want.map((r) => r.pattern), JSON.stringify([text, specs]));
      }),
      { numRuns: 4000 },
    );
  });

  it("a rule that settles the verdict ends the search: the naive list up to the first such rule matching the text (short and indexed lists)", () => {
    const word = fc.constantFrom("rm", "-rf", "-f", "--force", "--", "+main", "./a", "a.b", "/etc", "-", "é", "K", "-n", "x-y", "push");
    const presented: fc.Arbitrary<Presented> = fc.record({
      head: fc.constantFrom("rm", "git push", "x").map((h) => h.split(" ")),
      args: fc.array(word, { maxLength: 5 }),
      fixedOrder: fc.boolean(),
      extra: fc.option(fc.array(fc.array(word, { maxLength: 3 }), { maxLength: 2 }), { nil: undefined }),
    });
    const atom = fc.constantFrom("rm", "git", "push", "-f", "--force", "a\\.b", "main", "K", "é", "\\b", "\\s+", ".*", "(rm|x)", "(?!-n)", "-r", "-[rf]", "x");
    const regex = fc.record({ source: fc.array(atom, { minLength: 1, maxLength: 4 }).map((a) => a.join("")), flags: fc.constantFrom("", "", "i") });
    // Short lists and long (indexed) ones, as often.
    const lists = fc.oneof(fc.array(regex, { minLength: 1, maxLength: 15 }), fc.array(regex, { minLength: 24, maxLength: 40 }));
    fc.assert(
      fc.property(lists, presented, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (specs, p, settling) => {
        const rules = ruleSet(specs.filter(compiles));
        const list = rules.bashToolPatterns;
        if (list.length === 0) return;
        const text = textOf(p);
        const settles = (r: BashPatternRule) => settling[list.indexOf(r)];
        const c: ExecutedCommand = { text, span: { start: 0, end: 1 }, spellings: new Spellings(p, text) };
        const every = matchingPatternsNaive(rules, [text, ...(variantsOfCommand({ spellings: new Spellings(p, text) }) ?? [])]);
        const cut = every.find((r) => settles(r) && r.regex.test(text));
        const want = cut ? every.filter((r) => list.indexOf(r) <= list.indexOf(cut)) : every;
        assert.deepEqual(matchingCommandPatterns(rules, c, settles).map((r) => list.indexOf(r)), want.map((r) => list.indexOf(r)), JSON.stringify([text, specs.map((x) => x.source), list.length]));
      }),
      { numRuns: 4000 },
    );
  });

  it("decide() stops looking for pattern rules once a block settles the verdict: the same verdicts as looking for all", () => {
    // The reference rules' shapes (ask rules, a regenerable carve-out, rules anchored to a program)
    // and an exception that never applies: with it, no verdict can be settled early (the general path).
    const yaml = [
      "bashToolPatterns:",
      "  - pattern: '\\brm\\s+(-[^\\s]*)*-[rRf]'\n    reason: rm\n    unless: regenerable",
      "  - pattern: '\\bgit\\s+push\\s+.*--force'\n    reason: ask push\n    ask: true",
      "  - pattern: '\\brm\\b'\n    reason: any rm",
      "  - pattern: '\\bgit\\s+clean\\s+(-[^\\s]*)*-[fd]'\n    reason: clean",
      "  - pattern: '\\bsudo\\b'\n    reason: sudo\n    ask: true",
      "  - pattern: '--force'\n    reason: force anywhere",
      "  - pattern: '\\bchmod\\s+777'\n    reason: chmod",
      "  - pattern: 'rm -f'\n    reason: literal",
      "noDeletePaths:\n  - specs/",
    ].join("\n");
    const rules = parseRules(yaml).rules;
    assert.equal(rules.bashToolPatterns.length, 8);
    const general = parseRules(yaml + "\nallow:\n  - command: 'never(?!)'\n    reason: never applies\n").rules;
    const word = fc.constantFrom("rm", "-rf", "-f", "-r", "build", "src", "specs", "git", "push", "--force", "origin", "clean", "-fd", "sudo", "chmod", "777", "x", "echo", "--", "-n", "node_modules");
    const sep = fc.constantFrom(" ", " ", " ", " && ", " | ", "; ");
    const command = fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 8 }).map((ws) => ws.map(([w, s], i) => (i < ws.length - 1 ? w + s : w)).join(""));
    const ctx = { cwd: "/home/dev/p", home: "/home/dev" };
    fc.assert(
      fc.property(command, (cmd) => {
        const call = { tool: "Bash", input: { command: cmd } };
        assert.deepEqual(decide(call, rules, ctx), decide(call, general, ctx), cmd);
      }),
      { numRuns: 4000 },
    );
  });

  it("a path's segments in one pass: what split and filter gave", () => {
    const path = fc.array(fc.constantFrom("/", "a", "b", ".", "..", "é", " "), { maxLength: 8 }).map((a) => a.join(""));
    fc.assert(
      fc.property(path, (p) => assert.deepEqual(segmentsOf(p), p.split("/").filter((part) => part !== ""), JSON.stringify(p))),
      { numRuns: 3000 },
    );
  });

  it("words of one shape: every field reads as the word it was made from (unset ones as undefined)", () => {
    const fields: (keyof Arg)[] = ["value", "text", "span", "code", "glob", "under", "named", "unknown", "pipe", "output", "maybe", "braces", "printedBy", "words"];
    const some = fc.record({ value: fc.option(fc.string(), { nil: undefined }), glob: fc.option(fc.boolean(), { nil: undefined }), under: fc.option(fc.array(fc.string()), { nil: undefined }), unknown: fc.option(fc.constant(true), { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(some, (f) => {
        const word = { text: "t", span: { start: 0, end: 1 }, ...f } as Arg;
        const shaped = shapedArg(word);
        for (const k of fields) assert.equal(shaped[k], word[k], k);
        assert.deepEqual(Object.keys(shaped), fields); // one order: one hidden class
      }),
      { numRuns: 500 },
    );
  });

  it("sameWords without splitting: what splitting on spaces answered", () => {
    const reference = (original: string, normalized: string) =>
      normalized
        .split(" ")
        .filter((w) => w !== "…")
        .every((w) => original.includes(w));
    const piece = fc.constantFrom("rm", "-rf", "…", "", " ", "x…", "a b", "git", "é");
    const text = fc.array(piece, { maxLength: 6 }).map((a) => a.join(" "));
    fc.assert(
      fc.property(text, text, (o, n) => assert.equal(sameWords(o, n), reference(o, n), JSON.stringify([o, n]))),
      { numRuns: 5000 },
    );
  });

  it("program facts are remembered per name: the same as computed, first time and again, past the bound", () => {
    const names = [...handledPrograms(), ...Object.keys(EFFECT_TABLE), ...REMOTE_TABLE.keys(), "python3.11", "pypy3", "nodejs", "perl5.36", "npm", "x", "", "git-push", "constructor", "toString"];
    for (let k = 0; k < 2500; k++) names.push(`prog${k}`); // more names than the memo keeps
    for (const round of [1, 2]) {
      for (const n of names) assert.equal(handledProgram(n), programFactsOf(n).handled, `${n} (round ${round})`);
    }
  });

  it("programOf by hand (last separator, Windows suffix, version): what the regex and lastIndexOf version answered", () => {
    // The version before issue 26 §3, kept as the reference.
    const known = (n: string) => programFactsOf(n).known;
    const reference = (word: string) => {
      let name = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1);
      const windows = /\.(exe|cmd|bat|com)$/i.exec(name);
      if (windows) name = name.slice(0, windows.index).toLowerCase();
      if (known(name)) return name;
      const versioned = /^(.+?)-?\d+(?:\.\d+)*$/.exec(name);
      return versioned && known(versioned[1]) ? versioned[1] : name;
    };
    const piece = fc.constantFrom("git", "GIT", "psql", "python", "rm", "/", "\\", "usr", ".", ".exe", ".EXE", ".cmd", ".Bat", ".com", "ex", "-", "15", "3", "11", "20", "a", "");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }).map((a) => a.join("")), (w) => assert.equal(programOf(w), reference(w), JSON.stringify(w))),
      { numRuns: 8000 },
    );
  });

  it("command exceptions compiled once: the same answer, call after call, whatever the flags (g and y keep state)", () => {
    const rule = ruleSet([{ source: "rm", flags: "" }]).bashToolPatterns[0];
    for (const flags of ["", "g", "y", "gi", "m", "gym"]) {
      const e: Exception = { kind: "command", pattern: "rm -rf (build|dist)", regex: new RegExp("rm -rf (build|dist)", flags), reason: "x" };
      const rules: RuleSet = { ...ruleSet([]), allow: [e] };
      const fresh = (texts: string[]) => texts.some((t) => new RegExp(`^(?:${e.pattern})$`, flags).test(t.trim()));
      for (const texts of [["rm -rf build"], ["rm -rf build"], ["rm -rf dist", "x"], ["x", "rm -rf dist"], ["rm -rf src"], ["rm -rf build"]]) {
        assert.equal(commandException(rules, rule, () => texts, { cwd: "/p", home: "/h" }) !== undefined, fresh(texts), `${flags} ${texts}`);
      }
    }
  });

  it("name entries `*.ext` and `name*` as endsWith/startsWith: what minimatch answers for every segment", () => {
    const ch = fc.constantFrom("a", ".", "e", "n", "v", "*", "?", "[", "]", "-", "é", "+", "(", ")", "!", "@", "{", "}", ",", "#");
    const entry = fc.array(ch, { minLength: 1, maxLength: 5 }).map((a) => a.join(""));
    const part = fc.oneof(fc.constantFrom(".", "..", "", ".env", ".env.local", "a.pem", ".pem", "x*"), fc.array(ch, { maxLength: 6 }).map((a) => a.join("")));
    fc.assert(
      fc.property(entry, fc.array(part, { maxLength: 5 }), (e, parts) => {
        if (e.includes("/")) return;
        const glob = new Minimatch(e, { dot: true, nocomment: true, nonegate: true });
        const test = segmentTest(e, glob);
        for (const p of parts) assert.equal(test(p), glob.match(p), JSON.stringify([e, p]));
      }),
      { numRuns: 6000 },
    );
  });

  it("path entries compiled per rules, root and home: switching folders and back gives each folder's own answer", () => {
    const rules = parseRules("noDeletePaths:\n  - specs/\nreadOnlyPaths:\n  - ~/notes/\n").rules;
    const call = (command: string) => ({ tool: "Bash", input: { command } });
    const at = (cwd: string, home: string, root?: string) => ({ cwd, home, ...(root && { root }) });
    const steps: [string, ReturnType<typeof at>][] = [
      ["rm -rf /a/specs", at("/a", "/h")],
      ["rm -rf /b/specs", at("/a", "/h")],
      ["rm -rf /b/specs", at("/b", "/h")],
      ["rm -rf /a/specs", at("/b", "/h")],
      ["rm -rf /a/specs", at("/b", "/h", "/a")],
      ["echo x > /h/notes/n", at("/a", "/h")],
      ["echo x > /h/notes/n", at("/a", "/g")],
      ["echo x > /g/notes/n", at("/a", "/g")],
    ];
    // A fresh copy of the rule set per step has no compiled entries remembered: the general path.
    const want = steps.map(([command, ctx]) => decide(call(command), { ...rules }, ctx).action);
    assert.deepEqual(want, ["block", "allow", "block", "allow", "block", "block", "allow", "block"]);
    // Then the same steps one after the other on one rule set, as a session asks them.
    assert.deepEqual(
      steps.map(([command, ctx]) => decide(call(command), rules, ctx).action),
      want,
    );
  });
});
