// Running git for the snapshot step and for restore: no pager, no prompts, no hooks' config from
// the agent's environment, bounded by the time left.
import { execFileSync } from "node:child_process";

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
export { EMPTY_TREE };

export interface GitOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  timeoutMs?: number;
}

export function git(args: string[], o: GitOptions): string {
  return gitBuffer(args, o).toString("utf8").replace(/\n$/, "");
}

export function gitBuffer(args: string[], o: GitOptions): Buffer {
  return execFileSync("git", args, {
    cwd: o.cwd,
    env: { ...process.env, ...o.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0" },
    input: o.input,
    timeout: o.timeoutMs,
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** git's answer, or undefined when it fails (a ref that does not exist, not a repository). */
export function gitMaybe(args: string[], o: GitOptions): string | undefined {
  try {
    return git(args, o);
  } catch (e) {
    if ((e as { code?: string }).code === "ETIMEDOUT") throw e;
    return undefined;
  }
}

/** An environment whose new objects go to `objects` while the repository's objects stay readable. */
export function privateObjects(objects: string, repoObjects: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { GIT_OBJECT_DIRECTORY: objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: repoObjects, ...extra };
}
