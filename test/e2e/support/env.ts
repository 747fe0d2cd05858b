// The environment an agent under test gets. Built from an allowlist rather than by stripping:
// a developer's shell carries ANTHROPIC_*/CLAUDE*/PI_* settings, API keys, proxies, XDG_* config
// homes, GIT_DIR from a git hook, VSCODE_*/TERM_PROGRAM (Claude Code would try to attach to the
// IDE) and NODE_OPTIONS. Any of those would make a run depend on the machine, or send traffic
// off the loopback. Only what a shell needs to run commands is kept.
import * as os from "node:os";

const KEEP = new Set(["PATH", "SHELL", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM"]);

/** Loopback must never go through a proxy; empty proxy vars also override npm/undici defaults. */
export const NO_PROXY = "127.0.0.1,localhost,::1";

export interface IsolatedEnvOptions {
  home: string;
  tmpdir: string;
  /** Folder above the project: git stops here and never finds the repository the tests run in. */
  gitCeiling: string;
  /** Set last, so the caller wins (e.g. DAMAGE_CONTROL_TOKEN for hook header interpolation). */
  extra?: Record<string, string | undefined>;
}

export function isolatedEnv(opts: IsolatedEnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && (KEEP.has(k) || k.startsWith("LC_"))) env[k] = v;
  }
  Object.assign(env, {
    HOME: opts.home,
    TMPDIR: opts.tmpdir,
    NO_PROXY,
    no_proxy: NO_PROXY,
    GIT_CEILING_DIRECTORIES: opts.gitCeiling,
    // Commits made by a tool call must not need the developer's git identity.
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "e2e",
    GIT_AUTHOR_EMAIL: "e2e@example.invalid",
    GIT_COMMITTER_NAME: "e2e",
    GIT_COMMITTER_EMAIL: "e2e@example.invalid",
  });
  env.USER ??= os.userInfo().username;
  for (const [k, v] of Object.entries(opts.extra ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}
