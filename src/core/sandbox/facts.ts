// What the sandbox policy needs from the machine: the files a glob entry matches (looked for only
// in the workspace and the HOME folders the rules list, never machine-wide), the guard's own files,
// the temp and cache folders everyday tools write, and the hosts everyday work talks to.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compilePathEntry, globBase, pathMatches } from "../../engine/paths";
import type { RuleSet } from "../../engine/types";
import type { SandboxFacts } from "../../engine/sandbox/policy";
import { userConfigDir, userRulesFile } from "../layer-files";
import { userStateDir } from "../state-dir";
import { tokenFile } from "../token";

type Env = NodeJS.ProcessEnv;

/** At most this many entries are looked at per folder walked (node_modules and .git are skipped). */
export const WALK_LIMIT = 20_000;
const SKIP = new Set([".git", "node_modules"]);

/** Every path below `root` (files and folders), breadth first, within the limit. */
export function walk(root: string, limit = WALK_LIMIT): string[] {
  const out: string[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length < limit) {
    const dir = queue.shift()!;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) {
      if (SKIP.has(d.name)) continue;
      const p = path.join(dir, d.name);
      out.push(p);
      if (d.isDirectory()) queue.push(p);
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** The HOME folders the rules list (`~/.ssh/`, `~/.aws/`): where a bare name or glob is also looked for. */
export function listedHomeFolders(rules: RuleSet, home: string): string[] {
  const out = new Set<string>();
  for (const r of [...rules.zeroAccessPaths, ...rules.readOnlyPaths]) {
    const abs = r.path.startsWith("~/") ? home + r.path.slice(1) : r.path;
    if (abs.startsWith(home + "/") && abs.endsWith("/") && !/[*?[\]{}]/.test(abs)) out.add(abs.replace(/\/+$/, ""));
  }
  return [...out];
}

/**
 * `matches(entry)`: the existing paths a bare name (`.env`, `*.pem`) or glob entry matches in the
 * workspace and the listed HOME folders. A glob anchored elsewhere (`/proc/*\/environ`) matches
 * nothing here: the hook still judges it.
 */
export function globMatcher(folder: string, home: string, homeFolders: string[]): (entry: string) => string[] {
  const roots = [folder, ...homeFolders];
  const walked = new Map<string, string[]>();
  const listing = (root: string) => {
    let l = walked.get(root);
    if (!l) walked.set(root, (l = walk(root)));
    return l;
  };
  const ctx = { cwd: folder, home, root: folder };
  return (entry) => {
    const m = compilePathEntry(entry, ctx);
    const out: string[] = [];
    for (const root of roots) {
      // A glob with a folder part is looked for only when that folder is inside this root.
      if (m.shape === "glob") {
        const base = globBase(m.target) || "/";
        if (!(base === root || base.startsWith(root + "/") || root.startsWith(base + "/"))) continue;
      }
      for (const p of listing(root)) if (pathMatches(m, p)) out.push(p);
    }
    return out;
  };
}

/** The guard's own files an agent must not change from inside (its state, its token unreadable). */
export function guardFiles(folder: string, env: Env = process.env): SandboxFacts["guard"] {
  const home = env.HOME || os.homedir();
  const config = env.XDG_CONFIG_HOME || path.join(home, ".config");
  return [
    { path: tokenFile(userStateDir(env)), what: "token", secret: true },
    { path: userStateDir(env), what: "state folder (registry, launcher, approvals)" },
    { path: userConfigDir(env), what: "config folder" },
    { path: userRulesFile(env), what: "user rules" },
    { path: path.join(folder, ".damage-control"), what: "workspace state (ledger, snapshots)" },
    { path: path.join(folder, ".claude"), what: "Claude Code project settings" },
    { path: path.join(home, ".claude", "settings.json"), what: "Claude Code user settings" },
    { path: path.join(home, ".gemini", "settings.json"), what: "Gemini CLI settings" },
    { path: path.join(folder, ".gemini", "settings.json"), what: "Gemini CLI project settings" },
    { path: path.join(home, ".qwen", "settings.json"), what: "Qwen Code settings" },
    { path: path.join(folder, ".qwen", "settings.json"), what: "Qwen Code project settings" },
    { path: env.CODEX_HOME || path.join(home, ".codex"), what: "Codex settings and hooks" },
    { path: path.join(home, ".copilot"), what: "Copilot hooks" },
    { path: path.join(folder, ".github", "hooks"), what: "Copilot project hooks" },
    { path: path.join(config, "opencode"), what: "OpenCode plugins" },
    { path: path.join(folder, ".opencode"), what: "OpenCode project plugins" },
    { path: env.CLINE_DIR || path.join(home, ".cline"), what: "Cline hooks" },
    { path: path.join(folder, ".cline"), what: "Cline project hooks" },
    { path: env.PI_CODING_AGENT_DIR || path.join(home, ".pi", "agent"), what: "pi extensions and settings" },
    { path: path.join(config, "Code", "User", "settings.json"), what: "VS Code settings" },
    { path: path.join(home, ".local", "share", "code-server", "User", "settings.json"), what: "code-server settings" },
    { path: path.join(folder, ".vscode", "settings.json"), what: "VS Code workspace settings" },
    { path: path.join(home, ".vscode", "extensions"), what: "VS Code extensions (the guard's own)" },
  ];
}

/** Temp folders and the caches package managers and compilers write under HOME. */
export function writableFolders(env: Env = process.env): string[] {
  const home = env.HOME || os.homedir();
  // Toolchains install into these too (`pip install --user`, `cargo install`, `gem install`,
  // version managers): a sandbox that breaks them gets switched off. The guard's own files below
  // them (~/.local/state/damage-control) stay unwritable: denyWrite is applied after these.
  const inHome = [".cache", ".npm", ".yarn", ".pnpm-store", ".local", ".bun", ".deno", ".cargo", ".rustup", path.join("go", "pkg"), ".gradle", ".m2", ".ivy2", ".sbt", ".gem", ".bundle", ".nuget", ".dotnet", ".pyenv", ".nvm", ".volta", ".pub-cache", path.join("Library", "Caches")];
  return [...new Set(["/tmp", "/var/tmp", os.tmpdir(), ...(env.TMPDIR ? [env.TMPDIR] : []), ...inHome.map((p) => path.join(home, p))])];
}

/** Public package registries everyday installs talk to. */
export const REGISTRY_HOSTS = ["registry.npmjs.org", "registry.yarnpkg.com", "pypi.org", "files.pythonhosted.org", "crates.io", "index.crates.io", "static.crates.io", "proxy.golang.org", "sum.golang.org", "rubygems.org", "repo.maven.apache.org"];

/** 127.0.0.1 (our own hooks go through the agent's sandbox proxy), the registries, the configured ones, the repository's remotes. */
export function everydayHosts(folder: string, env: Env = process.env): string[] {
  const home = env.HOME || os.homedir();
  const hosts = ["127.0.0.1", "localhost", ...REGISTRY_HOSTS];
  const urls = [env.npm_config_registry, env.NPM_CONFIG_REGISTRY, env.PIP_INDEX_URL];
  for (const f of [path.join(folder, ".npmrc"), path.join(home, ".npmrc")]) urls.push(...settingValues(f, /^\s*registry\s*=\s*(\S+)/gm));
  urls.push(...settingValues(path.join(folder, ".git", "config"), /^\s*url\s*=\s*(\S+)/gm));
  for (const u of urls) {
    const h = u && hostOf(u);
    if (h) hosts.push(h);
  }
  return [...new Set(hosts)];
}

function settingValues(file: string, re: RegExp): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return [...text.matchAll(re)].map((m) => m[1]);
}

/** The host of a URL or an scp-like git remote (`git@github.com:o/r.git`). */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.hostname) return u.hostname.replace(/^\[|\]$/g, "");
  } catch {
    /* not a URL: maybe scp-like */
  }
  return /^(?:[^@/]+@)?([A-Za-z0-9.-]+):(?!\/\/)/.exec(url)?.[1];
}
