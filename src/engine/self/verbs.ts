// What a command line of the product's own program does to the guard (issue 35): the verb after
// the program (and its flags) against REFUSED_VERBS. Pure: which file is the product is the
// core's to find out (src/core/self-program.ts).
import { REFUSED_VERBS, RUNNER_VALUE_OPTIONS, SCRIPT_RUNNERS } from "./table";

/** Why running the product with these arguments is refused to an agent, else undefined. */
export function refusedVerb(args: readonly string[]): string | undefined {
  // The CLI takes its verb first (src/cli/main.ts): `--cwd . serve` runs no verb at all.
  const verb = args[0];
  if (verb === undefined) return undefined;
  const row = REFUSED_VERBS.find((r) => r.verb === verb);
  if (!row) return undefined;
  if (row.only && !args.some((a) => row.only!.some((o) => a === o || a.startsWith(o + "=")))) return undefined;
  return `damage-control ${verb}: ${row.reason}`;
}

/**
 * The program file and its arguments of one command's words: `node X.js serve` is X.js with
 * [serve]; `env A=1 nohup node X serve` too; a plain `X serve` is X. Runners' options are skipped.
 */
export function programOf(words: readonly string[]): { program: string; args: string[]; script: boolean } | undefined {
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    const base = w.slice(w.lastIndexOf("/") + 1);
    // script: the operand of a runner, a file relative to the cwd even without a slash (`node fmt.js`).
    if (!SCRIPT_RUNNERS.includes(base)) return { program: w, args: words.slice(i + 1), script: i > 0 && !["env", "exec", "nohup", "setsid", "timeout", "nice", "stdbuf", "sudo", "doas"].includes(words[i - 1].slice(words[i - 1].lastIndexOf("/") + 1)) };
    i++;
    // The runner's own options and env's assignments, then its operand.
    while (i < words.length && (words[i].startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || /^\d+[smhd]?$/.test(words[i]))) {
      if (words[i] === "-c" || words[i] === "-e" || words[i] === "--eval" || words[i] === "-p" || words[i] === "--print") return undefined;
      if (RUNNER_VALUE_OPTIONS.includes(words[i])) i++;
      i++;
    }
  }
  return undefined;
}
