// The engine's caches whose keys come from the calls (so grow with distinct decisions) and live as
// long as the process or the decider worker: each is bounded, and this reports how full each one
// is, so tests and the bench can check the bounds hold. (The others are keyed by the rules or a
// fixed vocabulary: WeakMaps per rule set, the effect table's effect × target pairs.)
import { COMPILED_CONTEXTS_KEPT, compiledContextCount } from "./decide";
import { SEGMENT_GLOBS_KEPT, segmentGlobCount } from "./paths";
import type { RuleSet } from "./types";

export interface CacheSize {
  name: string;
  size: number;
  bound: number;
}

/** The caches decide() keeps for `rules` (per rule set) and across rule sets, with their bounds. */
export function engineCacheSizes(rules: RuleSet): CacheSize[] {
  return [
    { name: "compiled path entries (contexts per rule set)", size: compiledContextCount(rules), bound: COMPILED_CONTEXTS_KEPT },
    { name: "compiled wildcard segments", size: segmentGlobCount(), bound: SEGMENT_GLOBS_KEPT },
  ];
}
