// Scores a decider on the labelled corpus (../shared/corpus/README.md):
//   catch rate      expected block/ask, got block/ask
//   exact accuracy  got == expected
//   false positives expected allow, got block/ask
import * as fs from "node:fs";
import * as path from "node:path";
import type { Action } from "../../src/engine/types";

export interface CorpusCase {
  id: string;
  tool: string;
  input: Record<string, unknown>;
  expect: Action;
  class: string;
  variant: string;
  note?: string;
}

export const CORPUS_CWD = "/home/dev/plume-factory";
export const CORPUS_HOME = "/home/dev";

/** ../shared/corpus next to the project, else the copy in test/fixtures. */
export function corpusDir(root: string): string {
  const shared = path.resolve(root, "../shared/corpus");
  return fs.existsSync(path.join(shared, "commands.jsonl")) ? shared : path.join(root, "test/fixtures/corpus");
}

export function loadCorpus(file: string): CorpusCase[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as CorpusCase);
}

export interface Score {
  cases: number;
  positives: number;
  caught: number;
  exact: number;
  negatives: number;
  falsePositives: number;
}

export const emptyScore = (): Score => ({ cases: 0, positives: 0, caught: 0, exact: 0, negatives: 0, falsePositives: 0 });

export function add(s: Score, expect: Action, got: Action): void {
  s.cases++;
  if (got === expect) s.exact++;
  if (expect === "allow") {
    s.negatives++;
    if (got !== "allow") s.falsePositives++;
  } else {
    s.positives++;
    if (got !== "allow") s.caught++;
  }
}

export const pct = (n: number, d: number): number => (d === 0 ? NaN : (100 * n) / d);
export const catchRate = (s: Score) => pct(s.caught, s.positives);
export const exactRate = (s: Score) => pct(s.exact, s.cases);
export const fpRate = (s: Score) => pct(s.falsePositives, s.negatives);

export interface Scored {
  overall: Score;
  byClass: Map<string, Score>;
  byVariant: Map<string, Score>;
  misses: { c: CorpusCase; got: Action }[];
}

export function score(cases: CorpusCase[], decideOne: (c: CorpusCase) => Action): Scored {
  const overall = emptyScore();
  const byClass = new Map<string, Score>();
  const byVariant = new Map<string, Score>();
  const misses: { c: CorpusCase; got: Action }[] = [];
  for (const c of cases) {
    const got = decideOne(c);
    add(overall, c.expect, got);
    for (const [map, key] of [[byClass, c.class], [byVariant, c.variant]] as const) {
      if (!map.has(key)) map.set(key, emptyScore());
      add(map.get(key)!, c.expect, got);
    }
    if (got !== c.expect) misses.push({ c, got });
  }
  return { overall, byClass, byVariant, misses };
}
