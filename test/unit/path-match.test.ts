// The fast paths of path resolution and path-rule matching (src/engine/paths.ts) answer exactly
// what the general code answers: posix.resolve for resolvePath, minimatch's match() on every
// segment and every folder above for pathMatches. Checked on generated paths and entries.
import * as assert from "node:assert/strict";
import { posix } from "node:path";
import * as fc from "fast-check";
import { Minimatch } from "minimatch";
import { compilePathEntry, expandHome, pathMatches, resolvePath, type PathMatcher } from "../../src/engine/paths";

const MM = { dot: true, nocomment: true, nonegate: true } as const;
const home = "/home/dev";

/** pathMatches written with nothing but minimatch: the reference the fast paths must equal. */
function reference(m: PathMatcher, abs: string): boolean {
  switch (m.shape) {
    case "folder":
      return abs === m.target || abs.startsWith(m.target === "/" ? "/" : m.target + "/");
    case "name":
      return abs.split("/").some((part) => part !== "" && new Minimatch(m.entry, MM).match(part));
    case "glob":
      for (let p = abs; ; p = posix.dirname(p)) {
        if (new Minimatch(m.target, MM).match(p)) return true;
        if (p === "/") return false;
      }
  }
}

const segment = fc.oneof(
  fc.constantFrom("home", "dev", "proj", "src", ".env", ".env.local", "key.pem", "a.key", "PLAN.md", "adws", "adw_x.py", "adw_.py", ".", "..", "", "x y", "é", "a\\b", "*", "[x]", ".pem"),
  fc.stringMatching(/^[a-z.*_-]{1,6}$/),
);
const absPath = fc.array(segment, { minLength: 0, maxLength: 6 }).map((s) => "/" + s.join("/"));
const nameEntry = fc.oneof(
  fc.constantFrom(".env", ".env*", "*.pem", "*.key", "PLAN.md", "*.{pem,key}", "id_*", "!x", "#c", "a\\*b", "[.]env", "**", "*", "+(a|b)", "@(x)", "."),
  fc.stringMatching(/^[a-z.*?_-]{1,5}$/),
);
const globEntry = fc.oneof(
  fc.constantFrom("adws/adw_*.py", "src/**/*.ts", "~/.ssh/id_*", "/etc/*", "a//b/*", "./x/*.md", "../up/*", "x/./y/*", "/home/dev/proj/**", "c/[ab]/*", "{a,b}/x", "@(a|b)/c", "/a//b/*", "/x/../y/*", "/p/./q/*.md"),
  fc.array(fc.stringMatching(/^[a-z*?_.]{1,4}$/), { minLength: 2, maxLength: 4 }).map((s) => s.join("/")),
);

describe("path matching fast paths equal the general code", () => {
  const ctx = { cwd: "/home/dev/proj", home, root: "/home/dev/proj" };

  it("name entries: equality or the remembered minimatch answer, per segment", () => {
    fc.assert(
      fc.property(nameEntry, fc.array(absPath, { minLength: 1, maxLength: 8 }), (entry, paths) => {
        const m = compilePathEntry(entry, ctx);
        // Twice each: the second answer may come from the per-segment memory.
        for (const p of [...paths, ...paths]) assert.equal(pathMatches(m, p), reference(m, p), `${entry} on ${p}`);
      }),
      { numRuns: 3000 },
    );
  });

  it("glob entries: a path outside the glob's literal folder is no match, inside it minimatch decides", () => {
    fc.assert(
      fc.property(globEntry, absPath, fc.array(segment, { maxLength: 3 }), (entry, p, tail) => {
        const m = compilePathEntry(entry, ctx);
        // Paths below the entry's own folder too, where the shortcut must not answer.
        const inside = `${m.target.slice(0, Math.max(1, m.target.lastIndexOf("/")))}/${tail.join("/")}`;
        for (const q of [p, posix.normalize(inside)]) assert.equal(pathMatches(m, q), reference(m, q), `${entry} on ${q}`);
      }),
      { numRuns: 3000 },
    );
  });

  it("resolvePath: the shortcuts for normalised paths answer what posix.resolve answers", () => {
    const spelling = fc.array(segment, { minLength: 0, maxLength: 5 }).chain((s) =>
      fc.constantFrom(s.join("/"), "/" + s.join("/"), s.join("/") + "/", "./" + s.join("/"), "~/" + s.join("/"), "$HOME/" + s.join("/"), "/" + s.join("//"), s.join("/") + "\u00a0"),
    );
    const cwds = ["/home/dev/proj", "/", "/home/dev/proj/", "/a//b", "/a/./b", "/a/b/.."];
    fc.assert(
      fc.property(spelling, fc.constantFrom(...cwds), (raw, cwd) => {
        const expected = raw === "" ? undefined : posix.resolve(cwd, expandHome(raw.replace(/\u00a0/g, " "), home).replace(/\\/g, "/"));
        assert.equal(resolvePath(raw, { cwd, home }), expected, `${JSON.stringify(raw)} in ${cwd}`);
      }),
      { numRuns: 3000 },
    );
  });
});
