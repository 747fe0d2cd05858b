// The walk: every command that will execute is found, wherever it is nested; nothing that is only
// data is presented as a command; bounds hold on pathological input.
import * as assert from "node:assert/strict";
import { analyze, someText, texts } from "./shell-helpers";

const RM_RF = /\brm\s+(-[^\s]*)*-[rRf]/;
const RESET_HARD = /\bgit\s+reset\s+--hard\b/;

describe("shell analysis: walking what executes", () => {
  describe("lists, pipelines, grouping, control flow", () => {
    const cases: [string, RegExp][] = [
      ["true && git reset --hard", RESET_HARD],
      ["false || git reset --hard", RESET_HARD],
      ["echo a; git reset --hard", RESET_HARD],
      ["echo a\ngit reset --hard", RESET_HARD],
      ["yes | rm -rf x | cat", RM_RF],
      ["sleep 1 & rm -rf x", RM_RF],
      ["(cd /tmp; rm -rf x)", RM_RF],
      ["{ rm -rf x; }", RM_RF],
      ["if [ -d x ]; then rm -rf x; fi", RM_RF],
      ["if true; then :; elif false; then :; else rm -rf x; fi", RM_RF],
      ["for i in 1 2 3; do rm -rf $i; done", RM_RF],
      ["while read l; do git reset --hard; done < list", RESET_HARD],
      ["until false; do rm -rf x; done", RM_RF],
      ["case $1 in a) rm -rf x;; esac", RM_RF],
      ["cleanup() { rm -rf x; }; cleanup", RM_RF],
      ["! git reset --hard", RESET_HARD],
      ["time git reset --hard", RESET_HARD],
      ["coproc rm -rf x", RM_RF],
    ];
    for (const [cmd, re] of cases) it(JSON.stringify(cmd), () => assert.ok(someText(cmd, re), texts(cmd).join(" | ")));
  });

  describe("substitutions", () => {
    const cases: [string, RegExp][] = [
      ["echo $(rm -rf x)", RM_RF],
      ["echo `rm -rf x`", RM_RF],
      ['echo "$(git reset --hard)"', RESET_HARD],
      ["x=$(git reset --hard)", RESET_HARD],
      ["cat <(rm -rf x)", RM_RF],
      ["tee >(git reset --hard) < f", RESET_HARD],
      ["echo > $(git reset --hard)", RESET_HARD],
      ["echo $(( $(rm -rf x) + 1 ))", RM_RF],
      ["[[ -n $(git reset --hard) ]]", RESET_HARD],
      ["echo ${X:-$(rm -rf x)}", RM_RF],
      ["echo $(echo $(echo $(rm -rf x)))", RM_RF],
      ["cat <<EOF\n$(rm -rf x)\nEOF", RM_RF],
    ];
    for (const [cmd, re] of cases) it(JSON.stringify(cmd), () => assert.ok(someText(cmd, re), texts(cmd).join(" | ")));
  });

  describe("code handed to a shell", () => {
    const cases: [string, RegExp][] = [
      ["bash -c 'rm -rf x'", RM_RF],
      ["sh -ec 'git reset --hard'", RESET_HARD],
      ["zsh -lc 'rm -rf x'", RM_RF],
      ["dash -c 'rm -rf x' arg0", RM_RF],
      ["bash -o pipefail -c 'rm -rf x'", RM_RF],
      ["bash -c \"bash -c 'git reset --hard'\"", RESET_HARD],
      ["eval 'rm -rf x'", RM_RF],
      ["eval rm -rf x", RM_RF],
      ["echo 'rm -rf x' | bash", RM_RF],
      ["printf 'git reset --hard\\n' | sh", RESET_HARD],
      ["sh <<'EOF'\nrm -rf x\nEOF", RM_RF],
      ["bash <<< 'git reset --hard'", RESET_HARD],
      ["bash -s <<EOF\nrm -rf x\nEOF", RM_RF],
      ["watch -n 5 'git reset --hard'", RESET_HARD],
      ["su -c 'rm -rf x' root", RM_RF],
      ["find . -exec sh -c 'git reset --hard' \\;", RESET_HARD],
    ];
    for (const [cmd, re] of cases) it(JSON.stringify(cmd), () => assert.ok(someText(cmd, re), texts(cmd).join(" | ")));
  });

  describe("wrappers: the wrapper is seen, and so is the wrapped command", () => {
    const cases = [
      "sudo rm -rf x",
      "sudo -u root -E rm -rf x",
      "doas rm -rf x",
      "env rm -rf x",
      "env -i A=1 B=2 rm -rf x",
      "FOO=1 BAR=2 rm -rf x",
      "command rm -rf x",
      "builtin command rm -rf x",
      "exec rm -rf x",
      "nice rm -rf x",
      "nice -n 10 rm -rf x",
      "nohup rm -rf x",
      "timeout 10 rm -rf x",
      "timeout -s KILL 5m rm -rf x",
      "stdbuf -oL rm -rf x",
      "ionice -c 3 rm -rf x",
      "setsid rm -rf x",
      "busybox rm -rf x",
      "uv run rm -rf x",
      "/bin/rm -rf x",
      "xargs rm -rf < list",
      "sudo nice -n 5 env FOO=1 rm -rf x",
    ];
    for (const cmd of cases) it(JSON.stringify(cmd), () => assert.ok(someText(cmd, RM_RF), texts(cmd).join(" | ")));

    it("keeps the wrapper as its own command (so \\bsudo\\b still fires)", () => {
      const t = texts("nice -n 5 sudo -u x git status");
      assert.ok(t.some((x) => /^sudo\b/.test(x)), t.join(" | "));
      assert.ok(t.includes("git status"), t.join(" | "));
    });
    it("xargs runs echo by default, and sudo given by xargs is seen", () => {
      assert.ok(someText("echo ok | xargs sudo --", /^sudo\b/));
    });
    it("`command -v rm` looks rm up, it does not run it", () => {
      assert.ok(!someText("command -v rm -rf", RM_RF));
    });
    it("env -S splits its string into the wrapped command", () => {
      assert.ok(someText("env -S 'git reset --hard'", RESET_HARD));
    });
  });

  describe("data is not a command", () => {
    const data = [
      "echo 'rm -rf /'",
      'echo "git reset --hard"',
      "printf '%s\\n' 'rm -rf /'",
      "echo $'rm -rf /'",
      "grep -rn 'rm -rf' .",
      "grep -e 'git reset --hard' -e 'rm -rf' f",
      "rg 'git reset --hard' src",
      "git commit -m 'rm -rf is dangerous'",
      "git commit --message='git reset --hard fix'",
      "git log --grep 'rm -rf'",
      "cat <<EOF\nrm -rf /\nEOF",
      "tee notes <<'EOF'\ngit reset --hard\nEOF",
      "python3 -c \"print('rm -rf /')\"",
      "node -e \"console.log('git reset --hard')\"",
      "sed 's/rm -rf//' f",
      "awk '/rm -rf/ {print}' f",
      "head git reset --hard",
      "which rm",
      "man rm",
      "X='rm -rf /'; echo \"$X\"",
      "echo '$(rm -rf x)'",
      "echo \"\\$(rm -rf x)\"",
      "gh pr create --title 'rm -rf cleanup' --body 'git reset --hard'",
    ];
    for (const cmd of data) {
      it(JSON.stringify(cmd), () => {
        assert.ok(!someText(cmd, RM_RF) && !someText(cmd, RESET_HARD), texts(cmd).join(" | "));
      });
    }
  });

  describe("spans point into the original command", () => {
    it("a command in a list", () => {
      const cmd = "echo hi && rm -rf build";
      const rm = analyze(cmd).commands.find((c) => c.text.startsWith("rm"))!;
      assert.equal(cmd.slice(rm.span.start, rm.span.end), "rm -rf build");
    });
    it("a command inside bash -c '…'", () => {
      const cmd = "bash -c 'cd x && git reset --hard'";
      const c = analyze(cmd).commands.find((x) => x.text === "git reset --hard")!;
      assert.equal(cmd.slice(c.span.start, c.span.end), "git reset --hard");
    });
    it("a command inside bash -c \"…\" with escapes", () => {
      const cmd = 'bash -c "echo \\"a\\" && rm -rf y"';
      const c = analyze(cmd).commands.find((x) => x.text.startsWith("rm"))!;
      assert.equal(cmd.slice(c.span.start, c.span.end), "rm -rf y");
    });
    it("two levels of nesting", () => {
      const cmd = `sh -c "bash -c 'git stash drop'"`;
      const c = analyze(cmd).commands.find((x) => x.text === "git stash drop")!;
      assert.equal(cmd.slice(c.span.start, c.span.end), "git stash drop");
    });
    it("a heredoc fed to a shell", () => {
      const cmd = "bash <<EOF\necho a\ngit clean -fd\nEOF";
      const c = analyze(cmd).commands.find((x) => x.text.startsWith("git clean"))!;
      assert.equal(cmd.slice(c.span.start, c.span.end), "git clean -fd");
    });
    it("a substitution", () => {
      const cmd = "echo $(git reset --hard HEAD)";
      const c = analyze(cmd).commands.find((x) => x.text.startsWith("git"))!;
      assert.equal(cmd.slice(c.span.start, c.span.end), "git reset --hard HEAD");
    });
    it("a path effect", () => {
      const cmd = "cat notes.txt > PLAN.md";
      const e = analyze(cmd).effects.find((x) => x.access === "write")!;
      assert.equal(cmd.slice(e.span.start, e.span.end), "PLAN.md");
    });
    it("an SQL statement in a psql argument", () => {
      const cmd = "psql -c 'select 1; drop table users'";
      const c = analyze(cmd).commands.find((x) => x.text.startsWith("DROP"))!;
      assert.equal(cmd.slice(c.span.start, c.span.end), "drop table users");
    });
  });

  describe("bounds", () => {
    it("deep bash -c nesting stops with an uncertainty, not a stack overflow", () => {
      let cmd = "git reset --hard";
      for (let i = 0; i < 14; i++) cmd = `bash -c ${JSON.stringify(cmd)}`;
      const a = analyze(cmd);
      assert.ok(a.uncertain.some((u) => /deep/.test(u.why)), JSON.stringify(a.uncertain));
    });
    it("deep eval chains stop with an uncertainty too", () => {
      const a = analyze("eval ".repeat(200) + "git reset --hard");
      assert.ok(a.uncertain.some((u) => /deep/.test(u.why)), JSON.stringify(a.uncertain));
    });
    it("nesting within the bound is analysed fully", () => {
      let cmd = "git reset --hard";
      for (let i = 0; i < 4; i++) cmd = `bash -c ${JSON.stringify(cmd)}`;
      assert.ok(someText(cmd, RESET_HARD));
      assert.equal(analyze(cmd).uncertain.length, 0);
    });
    it("an over-long command is a parse error", () => {
      const a = analyze("echo " + "x".repeat(200_000));
      assert.equal(a.parseErrors.length, 1);
    });
    it("many commands are bounded and reported", () => {
      const t0 = Date.now();
      const a = analyze(Array.from({ length: 3000 }, (_, i) => `echo ${i}`).join("; "));
      assert.ok(Date.now() - t0 < 2000);
      assert.ok(a.commands.length <= 400);
      assert.ok(a.uncertain.length > 0);
    });
    it("a long pipeline of big words stays fast", () => {
      const t0 = Date.now();
      analyze(Array.from({ length: 500 }, () => "cat " + "a".repeat(100)).join(" | "));
      assert.ok(Date.now() - t0 < 2000);
    });
    it("unterminated quotes are parse errors", () => {
      assert.ok(analyze("echo 'oops").parseErrors.length > 0);
      assert.ok(analyze('bash -c "rm -rf x').parseErrors.length > 0);
    });
    it("parse errors inside nested code are reported too", () => {
      assert.ok(analyze(`bash -c 'echo "unterminated'`).parseErrors.length > 0);
    });
  });
});
