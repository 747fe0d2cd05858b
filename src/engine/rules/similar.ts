// "Did you mean" for misspelt keys: the known key with the smallest edit distance,
// if it is close enough to be a plausible typo.

export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const lc = c.toLowerCase();
    // A truncated key ("zeroAcces") is as plausible as a misspelt one.
    const d = Math.min(distance(w, lc), w.length >= 4 ? distance(w, lc.slice(0, w.length)) + 1 : Infinity);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Allow roughly one typo per four characters, and always at least two.
  return bestDistance <= Math.max(2, Math.floor(word.length / 4)) ? best : undefined;
}

/** Levenshtein distance, two rows. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
