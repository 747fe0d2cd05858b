// Our sandbox runner for agents without a sandbox of their own (issue 34, item 3). The guard turns
// a policy into bubblewrap's arguments once, writes them into its private state folder as
// <state>/sandbox/<id>.args (id = a hash of the arguments), and rewrites an allowed shell call to
//   '<state>/sandbox/run' <id> '<the command as the model wrote it>'
// The runner is a few lines of sh that exec into bubblewrap (`--args 3` reads the arguments from
// the file): no Node process per call, so the cost is bubblewrap's own. It takes its policy only
// from a file the guard wrote (the id picks one; the folder and the bubblewrap path are baked into
// the script), never from the environment the agent controls.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { argsFile, bwrapArgs, type PathKind } from "../../engine/sandbox/bwrap-args";
import type { SandboxPolicy } from "../../engine/sandbox/policy-types";
import { shellQuote as shQuote } from "../../engine/powershell/to-bash";
import { ensurePrivateDir, writeFileAtomic } from "../state-dir";

export const RUNNER_NAME = "run";

export interface PreparedCommand {
  /** The command the agent runs instead: the runner, the policy's id, the model's command. */
  command: string;
  id: string;
  /** Policy paths bubblewrap cannot mount over (nothing there yet). */
  skipped: string[];
}

/** The runner script: the policy folder, bubblewrap and the shell baked in (this machine's; never committed). */
export function runnerScript(o: { dir: string; bwrap: string; shell: string }): string {
  return `#!/bin/sh
# Damage Control's sandbox runner (written by the guard; rewritten when it changes).
# Usage: run <policy id> <command>. The policy is only ever read from ${o.dir}/<id>.args,
# which the guard wrote: nothing here comes from the environment.
case "$1" in ''|*[!0-9a-f]*) echo "damage-control sandbox: no such policy: $1" >&2; exit 126;; esac
if [ ! -r ${shQuote(o.dir)}/"$1".args ]; then
  echo "damage-control sandbox: policy $1 is gone (the rules changed); run the command again" >&2
  exit 126
fi
exec 3< ${shQuote(o.dir)}/"$1".args
exec ${shQuote(o.bwrap)} --args 3 -- ${shQuote(o.shell)} -c "$2"
`;
}

function kindOf(p: string): PathKind | undefined {
  try {
    return fs.statSync(p).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

export class SandboxRunner {
  readonly dir: string;
  readonly script: string;
  private readonly written = new Set<string>();
  private scriptText = "";

  constructor(
    stateDir: string,
    private readonly bwrap: string,
  ) {
    this.dir = path.join(stateDir, "sandbox");
    this.script = path.join(this.dir, RUNNER_NAME);
  }

  /** The bubblewrap arguments of a policy (what the bench runs bare, too). */
  plan(policy: SandboxPolicy) {
    return bwrapArgs(policy, { kind: kindOf, emptyFile: path.join(this.dir, "empty-file"), emptyDir: path.join(this.dir, "empty-dir") });
  }

  /** Writes what the policy needs (once per distinct policy) and returns the rewritten command. */
  prepare(policy: SandboxPolicy, command: string): PreparedCommand {
    this.ensureBase();
    const { args, skipped } = this.plan(policy);
    const text = argsFile(args);
    const id = createHash("sha256").update(text).digest("hex").slice(0, 32);
    const file = path.join(this.dir, `${id}.args`);
    if (!this.written.has(id) || !fs.existsSync(file)) {
      writeFileAtomic(file, text, 0o600);
      this.written.add(id);
    }
    return { command: `${shQuote(this.script)} ${id} ${shQuote(command)}`, id, skipped };
  }

  /** The state folder's sandbox/: the mode-000 placeholders and the runner script (rewritten if changed or gone). */
  private ensureBase(): void {
    ensurePrivateDir(this.dir);
    const emptyFile = path.join(this.dir, "empty-file");
    const emptyDir = path.join(this.dir, "empty-dir");
    if (!fs.existsSync(emptyFile)) fs.writeFileSync(emptyFile, "", { mode: 0o000 });
    if (!fs.existsSync(emptyDir)) fs.mkdirSync(emptyDir, { mode: 0o000 });
    const shell = fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
    const want = runnerScript({ dir: this.dir, bwrap: this.bwrap, shell });
    if (this.scriptText !== want || !fs.existsSync(this.script)) {
      let have = "";
      try {
        have = fs.readFileSync(this.script, "utf8");
      } catch {
        /* not there yet */
      }
      if (have !== want) writeFileAtomic(this.script, want, 0o700);
      this.scriptText = want;
    }
  }
}
