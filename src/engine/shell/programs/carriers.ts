// Programs run through another program (issue 36, family 6): an option, a configuration value or
// an environment variable whose content the program executes as a command line. DATA: program →
// the options that carry one; each carried command is judged as the command it is
// (`git -c core.sshCommand='rm -rf ~' fetch` is `rm -rf ~`). Called for every invocation.
import { sliceCode } from "../code";
import { analyzeInline } from "../inline";
import type { Invocation, Runner } from "../runner";
import { known, syntheticArg, type Arg } from "../words";
import { subArg, writtenText } from "./common";

interface Carrier {
  /** The option (`--rsh`, `-e`; `+` a vim/less `+cmd` word); absent: the words after `sub`. */
  option?: string[];
  /** The subcommand the option belongs to (git's `rebase`, `submodule foreach`). */
  sub?: string;
  /** A `key=value` (or `key value`) option value: only these keys carry a command. */
  key?: RegExp;
  /** Text before the command in the value (`exec=`, `!`, `:!`, `|`). */
  strip?: RegExp;
  /** Only a value that starts so is a command (vim's `-c '!…'`). */
  only?: RegExp;
  /** `argv`: the words themselves are the command (`git bisect run rm …`); `lua`: Lua code; else shell code. */
  as?: "argv" | "config" | "lua";
}

const GIT_CONFIG_COMMANDS = /^(core\.sshcommand|core\.pager|core\.editor|core\.fsmonitor|core\.askpass|sequence\.editor|diff\.external|diff\.[^.]+\.textconv|diff\.[^.]+\.command|merge\.[^.]+\.driver|filter\.[^.]+\.(clean|smudge|process)|pager\.[a-z-]+|credential\.helper|credential\.[^=]+\.helper|uploadpack\.packobjectshook|gpg\.program|gpg\.[a-z]+\.program|ssh\.command|alias\.[^=]+)$/i;
const SSH_COMMANDS = /^(proxycommand|localcommand|remotecommand|knownhostscommand)$/i;
// `-c '!cmd'` runs cmd in a shell; `-c 'lua …'` runs Lua, read as inline code (inline.ts).
const VIM: Carrier[] = [{ option: ["-c", "--cmd", "+"], only: /^:?!/, strip: /^:?!/ }, { option: ["-c", "--cmd", "+"], only: /^:?lua\s/, strip: /^:?lua\s+/, as: "lua" }];

const CARRIERS: Record<string, Carrier[]> = {
  git: [
    { option: ["-c"], key: GIT_CONFIG_COMMANDS, strip: /^!/ },
    { sub: "rebase", option: ["-x", "--exec"] },
    { sub: "config", as: "config" },
    { sub: "bisect", as: "argv" },
    { sub: "submodule" },
    { sub: "filter-branch", option: ["--tree-filter", "--index-filter", "--msg-filter", "--env-filter", "--commit-filter", "--parent-filter", "--tag-name-filter"] },
    { sub: "difftool", option: ["-x", "--extcmd"] },
    { option: ["--upload-pack", "--receive-pack"] },
  ],
  rsync: [{ option: ["-e", "--rsh", "--rsync-path"] }],
  man: [{ option: ["-P", "--pager", "-H", "--html"] }],
  tar: [{ option: ["--to-command", "-I", "--use-compress-program", "--info-script", "--new-volume-script", "-F"] }, { option: ["--checkpoint-action"], strip: /^exec=/, only: /^exec=/ }],
  ssh: [{ option: ["-o"], key: SSH_COMMANDS }],
  scp: [{ option: ["-o"], key: SSH_COMMANDS }, { option: ["-S"] }],
  sftp: [{ option: ["-o"], key: SSH_COMMANDS }, { option: ["-S"] }],
  zip: [{ option: ["-TT", "--unzip-command"] }],
  vim: VIM,
  vi: VIM,
  nvim: VIM,
  view: VIM,
  gvim: VIM,
  ex: VIM,
  less: [{ option: ["+"], only: /^!/, strip: /^!/ }],
};

/** git subcommands → the hooks they run (githooks(5)); a hook is a file in core.hooksPath. */
const GIT_HOOKS: Record<string, string[]> = {
  commit: ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"],
  merge: ["pre-merge-commit", "commit-msg", "post-merge"],
  pull: ["post-merge", "post-checkout", "post-rewrite"],
  push: ["pre-push", "reference-transaction"],
  checkout: ["post-checkout"],
  switch: ["post-checkout"],
  rebase: ["pre-rebase", "post-rewrite", "post-checkout"],
  am: ["applypatch-msg", "pre-applypatch", "post-applypatch"],
  clone: ["post-checkout"],
  gc: ["pre-auto-gc"],
};

/**
 * `git -c core.hooksPath=DIR commit`: git runs DIR's hooks for the subcommand; a hook written
 * earlier in this line (`printf '…' > DIR/pre-commit`) runs as written (issue 36, family 6).
 * Hooks not written here are the repository's own, as any `git commit` runs.
 */
function hooksRun(inv: Invocation, r: Runner, sub: number): void {
  if (sub < 0 || !known(inv.args[sub])) return;
  const hooks = Object.hasOwn(GIT_HOOKS, inv.args[sub].value!) ? GIT_HOOKS[inv.args[sub].value!] : undefined;
  if (!hooks) return;
  for (const v of optionValues(inv.args.slice(0, sub), ["-c"], 0)) {
    const m = known(v) ? /^core\.hookspath=(.+)$/i.exec(v.value) : null;
    if (!m) continue;
    for (const hook of hooks) {
      const code = writtenText(inv, `${m[1].replace(/\/+$/, "")}/${hook}`);
      if (code) r.runCode(code, inv.scope.child(), { kind: "none" }, inv.depth + 1, `git's ${hook} hook, written in this command line`);
    }
  }
}

/** The git subcommand word's index (after global options and their values). */
function gitSub(args: readonly Arg[]): number {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value ?? "";
    if (/^-[cC]$|^--(git-dir|work-tree|namespace|exec-path|config-env)$/.test(v)) i++;
    else if (!v.startsWith("-")) return i;
  }
  return -1;
}

/** The values given to one of `names` (`-e X`, `--rsh=X`, `-oX`, `+X`) at or after `from`. */
function optionValues(args: readonly Arg[], names: readonly string[], from: number): Arg[] {
  const out: Arg[] = [];
  for (let i = from; i < args.length; i++) {
    const a = args[i];
    if (!known(a)) continue;
    for (const n of names) {
      if (n === "+") {
        if (a.value.startsWith("+") && a.value.length > 1) out.push(subArg(a, a.value.slice(1)));
      } else if (a.value === n && args[i + 1]) out.push(args[i + 1]);
      else if (n.startsWith("--") && a.value.startsWith(`${n}=`)) out.push(subArg(a, a.value.slice(n.length + 1)));
      else if (!n.startsWith("--") && n.length === 2 && a.value.startsWith(n) && a.value.length > 2 && !a.value.startsWith("--")) out.push(subArg(a, a.value.slice(2)));
    }
  }
  return out;
}

/** The command text of a carried value: the key's value, the prefix stripped. */
function carried(c: Carrier, v: Arg): Arg | undefined {
  if (!known(v)) return undefined;
  let text = v.value;
  if (c.key) {
    const m = /^([^=\s]+)[=\s]+/.exec(text);
    if (!m || !c.key.test(m[1])) return undefined;
    text = text.slice(m[0].length);
  }
  if (c.only && !c.only.test(text)) return undefined;
  if (c.strip) text = text.replace(c.strip, "");
  if (text.trim() === "") return undefined;
  return subArg(v, text);
}

/** Runs what the invocation's carrier options hold, as the commands they are. */
export function carriedCommands(inv: Invocation, r: Runner): void {
  // `at`/`batch` run the commands they read on standard input, later.
  if ((inv.name === "at" || inv.name === "batch") && inv.stdin.kind === "text") r.runCode(inv.stdin.code, inv.scope.child(), { kind: "none" }, inv.depth + 1, inv.name);
  // `kubectl exec POD -- CMD…`: CMD runs in the pod, judged as the command it is (as `docker exec`).
  if ((inv.name === "kubectl" || inv.name === "oc") && inv.args.some((a) => a.value === "exec")) {
    const dash = inv.args.findIndex((a) => a.value === "--");
    if (dash >= 0 && dash + 1 < inv.args.length) r.run(inv.args.slice(dash + 1), inv.scope.child(), inv.stdin, inv.span, inv.depth + 1);
  }
  // Own names only: a program called `constructor` is no carrier.
  const carriers = Object.prototype.hasOwnProperty.call(CARRIERS, inv.name) ? CARRIERS[inv.name] : undefined;
  if (!carriers) return;
  const sub = inv.name === "git" ? gitSub(inv.args) : -1;
  if (inv.name === "git") hooksRun(inv, r, sub);
  for (const c of carriers) {
    if (c.sub !== undefined && (sub < 0 || inv.args[sub].value !== c.sub)) continue;
    const why = `${inv.name}${c.sub ? ` ${c.sub}` : ""}${c.option ? ` ${c.option[0]}` : ""}`;
    if (c.option === undefined) {
      // The words after the subcommand: `git bisect run CMD…` (argv), `git submodule foreach 'CMD'` (shell).
      const words = inv.args.slice(sub + 1);
      // `git config core.pager 'CMD'` in this line: a later git command runs CMD (judged where it is set).
      if (c.as === "config") {
        const ops = words.filter((a) => !(a.value ?? "").startsWith("-"));
        if (ops.length >= 2 && known(ops[0]) && GIT_CONFIG_COMMANDS.test(ops[0].value)) {
          const cmd = carried({ strip: /^!/ }, ops[1]);
          if (cmd?.code) r.runCode(cmd.code, inv.scope.child(), { kind: "none" }, inv.depth + 1, `git config ${ops[0].value}`);
        }
        continue;
      }
      if (c.as === "argv" && words[0]?.value === "run" && words.length > 1) r.run(words.slice(1), inv.scope.child(), { kind: "none" }, inv.span, inv.depth + 1);
      const script = words.filter((a) => !(a.value ?? "").startsWith("-"));
      if (c.as === undefined && script[0]?.value === "foreach" && script[1]?.code) r.runCode(script[1].code, inv.scope.child(), { kind: "none" }, inv.depth + 1, why);
      continue;
    }
    for (const v of optionValues(inv.args, c.option, c.sub ? sub + 1 : 0)) {
      const cmd = carried(c, v);
      if (!cmd) continue;
      const code = cmd.code ?? (v.code ? sliceCode(v.code, v.value!.length - cmd.value!.length) : syntheticArg(cmd.value!, v.span).code!);
      if (c.as === "lua") analyzeInline("lua", code, inv, r);
      else r.runCode(code, inv.scope.child(), { kind: "none" }, inv.depth + 1, why);
    }
  }
}

/** Environment variables whose value a program runs as a command line (`GIT_SSH_COMMAND`, `EDITOR`, `LESSOPEN`). */
export const CARRIER_ENV = new Set([
  "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
  "EDITOR", "VISUAL", "PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND", "RSYNC_RSH", "CVS_RSH", "BROWSER", "FCEDIT",
  "SVN_EDITOR", "HGEDITOR", "KUBE_EDITOR", "BASH_ENV_COMMAND",
]);

/** The command an environment carrier holds (LESSOPEN's `|cmd %s`: the pipe stripped). */
export function carriedByEnv(name: string, v: Arg): Arg | undefined {
  if (!CARRIER_ENV.has(name) || !known(v) || v.value.trim() === "") return undefined;
  return carried({ strip: /^\|+/ }, v);
}
