// The product's own program, as data (issue 35): the mark every copy of it carries, what its
// verbs do to the guard, and how an agent's process looks. The core reads files and processes
// (src/core/self-program.ts, src/core/provenance.ts); these tables say what the reads mean.

/**
 * In every bundle of the product (dist/cli.js, dist/extension.js, the launcher's copy of the CLI,
 * the launcher script itself): a program file holding it is this product, whatever its name, its
 * folder or the symlink that reaches it.
 */
export const PRODUCT_MARK = "damage-control-program:0b7e3c5a-guard";

/** Verbs an agent may run: they read, they change nothing of the guard or its records. */
export const AGENT_VERBS = ["check", "doctor", "rules", "hook", "help", "--help", "-h", "--version", "version"];

/**
 * Verbs refused to an agent, with why. `snapshots` is listed in AGENT_VERBS' spirit (a listing)
 * unless it deletes: that case is the row's `only` flag list.
 */
export const REFUSED_VERBS: { verb: string; only?: string[]; reason: string }[] = [
  { verb: "serve", reason: "starting an endpoint is the user's act: a second endpoint with rules of its own would take over the folder (run it from your own terminal)" },
  { verb: "install", reason: "installing or rewriting the guard's hooks changes what guards the agents (ask the user to run it)" },
  { verb: "uninstall", reason: "uninstalling Damage Control's hooks switches the guard off" },
  { verb: "exceptions", reason: "exceptions lift the guard's refusals: only the user adds or revokes them (ask the user)" },
  { verb: "snapshots", only: ["--delete", "--clear"], reason: "deleting snapshots removes what restores the user's files after a mistake (ask the user)" },
  { verb: "restore", reason: "restoring a snapshot is the user's act, from the panel or their own terminal (tell the user the snapshot id)" },
  { verb: "undo-restore", reason: "taking a restore back is the user's act, from the panel or their own terminal (tell the user the snapshot id)" },
  { verb: "endpoint", reason: "the endpoint's token lets a caller forge ledger lines and snapshots: it is not for the agent (damage-control doctor says whether the folder is guarded)" },
];

/** Programs that run a script file given as their first operand: the script is the program. */
export const SCRIPT_RUNNERS = ["node", "nodejs", "bun", "deno", "sh", "bash", "dash", "zsh", "ksh", "env", "exec", "nohup", "setsid", "timeout", "nice", "stdbuf", "sudo", "doas", "tsx", "ts-node"];

/** Options of those runners that take a value (skipped to find the script). */
export const RUNNER_VALUE_OPTIONS = ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--title", "-u", "-g", "-n", "-s", "-k", "--signal", "--kill-after"];

/** Signalling programs: killing the endpoint switches the guard off. */
export const SIGNAL_PROGRAMS = ["kill", "pkill", "killall", "skill", "fuser"];

/**
 * How an agent's process looks in a process's ancestry: its executable's name, or a package path
 * in its command line (agents run on Node). A process started below one of these runs a tool
 * call of that agent.
 */
export const AGENT_PROCESSES: { agent: string; names: string[]; paths: string[] }[] = [
  { agent: "Claude Code", names: ["claude", "claude.exe"], paths: ["@anthropic-ai/claude-code/"] },
  { agent: "Codex", names: ["codex", "codex-x86_64-unknown-linux-musl", "codex-aarch64-unknown-linux-musl"], paths: ["@openai/codex/"] },
  { agent: "Gemini CLI", names: ["gemini"], paths: ["@google/gemini-cli/", "gemini-cli/bundle/"] },
  { agent: "Qwen Code", names: ["qwen"], paths: ["@qwen-code/"] },
  { agent: "OpenCode", names: ["opencode"], paths: ["opencode-ai/", "/opencode/bin/"] },
  { agent: "Copilot CLI", names: ["copilot"], paths: ["@github/copilot/"] },
  { agent: "pi", names: ["pi"], paths: ["@mariozechner/pi-coding-agent/", "pi-coding-agent/dist/"] },
  { agent: "Cline", names: ["cline"], paths: ["cline/dist/", "/cline/bin/"] },
  { agent: "Cursor agent", names: ["cursor-agent"], paths: [] },
  { agent: "Aider", names: ["aider"], paths: [] },
];

/**
 * Variables agents set in their tool calls' environment. Measured: Claude Code 2.1.332 sets
 * CLAUDECODE in its Bash tool's environment (test/e2e/self-protection.test.ts: serve refused
 * "(CLAUDECODE is set)"); the others are the agents' documented markers, not measured here.
 */
export const AGENT_ENV_MARKERS = ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "GEMINI_CLI", "QWEN_CODE", "OPENCODE", "OPENCODE_PID"];
