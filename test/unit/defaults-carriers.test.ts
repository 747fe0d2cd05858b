// Issue 36, family 6: programs run through another program — an option, a configuration value or
// an environment variable whose content the program executes (src/engine/shell/programs/carriers.ts),
// judged as the command it carries. Everyday first: the same options carrying ordinary commands.
import * as assert from "node:assert/strict";
import { assertAllowed, judge } from "./defaults-helpers";

describe("defaults: programs run through another program (issue 36)", () => {
  it("passes carriers of ordinary commands", () => {
    assertAllowed([
      "git -c core.editor=vim commit",
      "git -c core.pager=cat log --oneline",
      "GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy_key -o IdentitiesOnly=yes' git fetch",
      "rsync -e 'ssh -p 2222' -a src/ host:dst/",
      "tar -I zstd -xf a.tar.zst",
      "tar --use-compress-program=pigz -cf out.tgz src",
      "git rebase -x 'npm test' main",
      "git submodule foreach 'git pull'",
      "git bisect run npm test",
      "ssh -o ProxyCommand='ssh -W %h:%p bastion' app",
      "EDITOR=nano crontab -l",
      "vim -c 'set number' README.md",
      "echo 'make test' | at now + 1 hour",
    ]);
  });

  it("judges the carried command as the command it is", () => {
    for (const command of [
      "git -c core.sshCommand='rm -rf ~' fetch",
      "git -c core.pager='rm -rf ~' log",
      "git -c core.fsmonitor='rm -rf ~' status",
      "GIT_SSH_COMMAND='rm -rf ~' git fetch",
      "export GIT_EDITOR='rm -rf ~'; git commit",
      "PAGER='rm -rf ~' git log",
      "LESSOPEN='|rm -rf ~ %s' less x",
      "rsync -e 'sh -c \"rm -rf ~\"' a b:c",
      "rsync --rsh='rm -rf ~' a b:c",
      "tar --to-command='rm -rf ~' -xf a.tar",
      "tar -I 'rm -rf ~' -xf a.tar",
      "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='rm -rf ~' .",
      "ssh -o ProxyCommand='rm -rf ~' host",
      "ssh -oProxyCommand='rm -rf ~' host",
      "zip -T -TT 'rm -rf ~' a.zip x",
      "git rebase -x 'rm -rf ~' main",
      "git bisect run rm -rf ~",
      "git submodule foreach 'rm -rf ~'",
      "git filter-branch --tree-filter 'rm -rf ~' HEAD",
      "git fetch --upload-pack='rm -rf ~' origin",
      "vim -c ':!rm -rf ~' x",
      "less +'!rm -rf ~' x",
      "echo 'rm -rf ~' | at now",
    ]) {
      const v = judge(command);
      assert.equal(v.action, "block", `${command}: ${v.action} ${v.reason}`);
      assert.match(v.reason, /rm -rf ~|rm-recursive-force/, `${command}: the rm rule decides`);
      // Control: the same carrier holding an ordinary command passes (the carried command is what is caught).
      const control = command.replace("rm -rf ~", "echo ok");
      // (filter-branch itself rewrites every branch's history: asked about whatever its filter is.)
      assert.equal(judge(control).action, /filter-branch/.test(command) ? "ask" : "allow", control);
    }
  });
});
