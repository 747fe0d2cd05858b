// The synthetic 1,000-rule file of the scale figures (issue 17 §3).

/** n rules: 70 % bash patterns (one in ten of them ask), the rest split over the three path kinds. */
export function generatedRules(n: number): string {
  const lines = ["bashToolPatterns:"];
  const patterns = Math.round(n * 0.7);
  for (let i = 0; i < patterns; i++) {
    lines.push(`  - pattern: '\\btool${i}\\s+(-[^\\s]*)*-x${i % 10}\\b'`, `    reason: generated rule ${i}`);
    if (i % 10 === 0) lines.push("    ask: true");
  }
  const per = Math.round((n - patterns) / 3);
  for (const [key, mk] of [
    ["zeroAccessPaths", (i: number) => `secret-${i}.txt`],
    ["readOnlyPaths", (i: number) => `generated/ro-${i}/`],
    ["noDeletePaths", (i: number) => `generated/keep-${i}.md`],
  ] as const) {
    lines.push(`${key}:`);
    for (let i = 0; i < per; i++) lines.push(`  - "${mk(i)}"`);
  }
  return lines.join("\n") + "\n";
}

/** The same file with problems in it, so every diagnostic path of the parser runs. */
export function brokenRules(n: number): string {
  return generatedRules(n).replace("tool5\\s", "tool5(\\s").replace("reason: generated rule 7\n", "reason: ''\n") + "readOnlyPath:\n  - x\n";
}
