// A throwaway project folder for one agent run: its own git repository (so the agent, and
// Damage Control's rules about the project root, never see the repository the tests run in)
// plus whatever files the scenario needs.
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { removeTemp, tempDir } from "./tmp";

export interface Project {
  /** Absolute, real path of the project root (use as the agent's cwd). */
  dir: string;
  /** Absolute path of a project-relative path. */
  path(rel: string): string;
  exists(rel: string): boolean;
  read(rel: string): string;
  write(rel: string, content: string): void;
  remove(): void;
}

export interface ProjectOptions {
  /** Project-relative path → content. Parent folders are created. */
  files?: Record<string, string>;
  /** git init + one commit of the files. Default true. */
  git?: boolean;
  /** Folder name prefix under the e2e temp root. */
  name?: string;
}

function git(cwd: string, args: string[]): void {
  // No inherited GIT_* (a git hook running the tests sets GIT_DIR); the project's parent is the
  // ceiling, so git never walks up into the outer repository.
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  env.GIT_CEILING_DIRECTORIES = path.dirname(cwd);
  env.GIT_CONFIG_NOSYSTEM = "1";
  execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", ...args], { cwd, stdio: "pipe", env });
}

export function makeProject(opts: ProjectOptions = {}): Project {
  // One folder holding the project, so GIT_CEILING_DIRECTORIES=<parent> fences it in.
  const dir = path.join(tempDir(opts.name ?? "project"), "proj");
  fs.mkdirSync(dir);
  const abs = (rel: string) => path.resolve(dir, rel);
  const write = (rel: string, content: string) => {
    fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
    fs.writeFileSync(abs(rel), content);
  };
  for (const [rel, content] of Object.entries(opts.files ?? {})) write(rel, content);
  if (opts.git !== false) {
    git(dir, ["init", "-q"]);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "--allow-empty", "-m", "initial"]);
  }
  return {
    dir,
    path: abs,
    exists: (rel) => fs.existsSync(abs(rel)),
    read: (rel) => fs.readFileSync(abs(rel), "utf8"),
    write,
    remove: () => removeTemp(path.dirname(dir)),
  };
}
