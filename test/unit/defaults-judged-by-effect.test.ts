// Issue 36, found by the held-out set heldout-36 (odd rows): everyday work the defaults refused
// because a rule judged the program, not what it does — and three routes a harmful effect took
// around a mechanism built for another program. Each block pairs the everyday commands (half of
// each table) with the refusals that must stay; every everyday row was refused before.
import * as assert from "node:assert/strict";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import type { Action } from "../../src/engine/types";
import { CWD, HOME, judge } from "./defaults-helpers";

type V = Action;
function table(cases: [string, V][]): void {
  for (const [command, want] of cases) {
    const v = judge(command);
    assert.equal(v.action, want, `${command}: ${v.action} ${v.reason}`);
  }
}
const mcp = (tool: string, input: Record<string, unknown>) => decide({ tool, input }, defaultRules(), { cwd: CWD, home: HOME });

describe("defaults: judged by what the command does (issue 36, held-out odd rows)", () => {
  it("sudo of a listing of the system's state, or an owner change inside the workspace, is not refused for the sudo (unless: confined)", () => {
    table([
      ["sudo iptables -L -n -v", "allow"],
      ["sudo ip6tables -S", "allow"],
      ["sudo ufw status verbose", "allow"],
      ["sudo systemctl status nginx", "allow"],
      ["sudo service nginx status", "allow"],
      ["sudo journalctl -u nginx --since today", "allow"],
      ["sudo crontab -l", "allow"],
      ["sudo sysctl -a", "allow"],
      ["sudo chown -R dev:dev /home/dev/plume-factory/node_modules", "allow"],
      ["sudo chown -R dev:dev .", "allow"],
      // A change under sudo stays refused: the verb, not the program, decides.
      ["sudo iptables -L -Z", "block"],
      ["sudo iptables -A INPUT -j DROP", "block"],
      ["sudo ufw enable", "block"],
      ["sudo systemctl restart nginx", "block"],
      ["sudo sysctl net.ipv4.ip_forward=1", "block"],
      ["sudo mount /dev/sdb1 /mnt", "block"],
      ["sudo chown -R dev:dev /home/dev", "block"],
      ["sudo chown dev /etc/passwd", "block"],
      ["sudo chown -R dev \"$DIR\"", "block"],
      ["sudo cat /etc/shadow", "block"],
      ["sudo iptables -L; sudo rm -rf /tmp/x", "block"],
    ]);
  });

  it("an environment dump read through a filter of named variables, none a secret's, is not a secret read", () => {
    table([
      ["env | grep -E '^(PATH|SHELL|LANG)='", "allow"],
      ["env | grep '^PATH='", "allow"],
      ["printenv | grep -E '^(HOME|USER)='", "allow"],
      ["env | grep '^\\(PATH\\|HOME\\)='", "allow"],
      ["env | sort | grep '^LANG='", "allow"],
      ["env | grep -c .", "allow"],
      ["env | grep -i token", "block"],
      ["env | grep -E '^(PATH|GITHUB_TOKEN)='", "block"],
      ["env | grep -iE '^(path|github_token)='", "block"],
      ["env | grep -E '^PATH'", "block"],
      ["env | grep -vE '^(PATH)='", "block"],
      ["env | tee /tmp/env.txt | grep '^PATH='", "block"],
      ["env | grep -E '^(PATH|HOME)=' ; env", "block"],
    ]);
  });

  it("a find that deletes name-filtered files keeps its name through a negated test; unfiltered stays refused", () => {
    table([
      ["find . -name '*.pyc' -not -path './.venv/*' -exec rm -f {} +", "allow"],
      ["find . -name '*.pyc' ! -path './.venv/*' -delete", "allow"],
      ["find . -name __pycache__ -not -path './node_modules/*' -type d -exec rm -rf {} +", "allow"],
      ["find . -not -name '*.pyc' -delete", "block"],
      ["find . ! -name '*.py' -exec rm -f {} +", "block"],
      ["find . -name '*.py' -not -path './.venv/*' -exec rm -f {} +", "block"],
      ["find . -exec rm -rf {} +", "block"],
    ]);
  });

  it("removes a family of scratch names the agent made under /tmp; every user's scratch stays refused", () => {
    table([
      ["rm -rf /tmp/plume-e2e-*", "allow"],
      ["rm -rf /var/tmp/build-cache-*", "allow"],
      ["rm -rf /tmp/*", "block"],
      ["rm -rf /tmp/*/cache", "block"],
      ["rm -rf /tmp/*.log", "block"],
    ]);
  });

  it("deletes a lock file and runs the tool that writes it again (sandbox.updatedByTools); hand edits stay refused", () => {
    table([
      ["rm -f package-lock.json && npm install", "allow"],
      ["rm yarn.lock && yarn", "allow"],
      ["rm -f Cargo.lock; cargo generate-lockfile", "allow"],
      // Deleted without its tool, the pins are just gone.
      ["rm -f package-lock.json", "block"],
      ["rm -f package-lock.json && yarn install", "block"],
      ["echo '{}' > package-lock.json", "block"],
      ["sed -i s/a/b/ package-lock.json", "block"],
      ["rm -f .env", "block"],
    ]);
  });

  it("help on any verb of a framework's command runner runs nothing", () => {
    table([
      ["php artisan migrate:fresh --help", "allow"],
      ["php artisan migrate:fresh -h", "allow"],
      ["python manage.py flush --help", "allow"],
      ["python3 manage.py flush -h", "allow"],
      ["bin/rails db:drop -h", "allow"],
      ["php artisan migrate:fresh", "block"],
      ["python manage.py flush", "block"],
      ["php -r 'system(\"rm -rf ~\");' --help", "block"],
    ]);
  });

  it("a name-filtered walk of the machine lists names only; a walk for a secret's own name, or inside a secret folder, stays refused", () => {
    table([
      ["find / -name 'libssl.so*' 2>/dev/null", "allow"],
      ["find / -name '*.so' -type f", "allow"],
      ["find ~ -name id_rsa", "block"],
      ["find / -iname CREDENTIALS", "block"],
      // A walk from above a secret folder prints names only (item 11: listing is not reading;
      // defaults-reach.test.ts): changed on purpose when the two listing rules met.
      ["find / -name '*'", "allow"],
      ["find /", "allow"],
      ["find ~/.ssh -name 'x*'", "block"],
      ["find / -name 'libssl.so*' -exec cat {} +", "block"],
    ]);
  });

  it("commands read on stdin a line each are judged as the program run with that line", () => {
    table([
      ["echo PING | redis-cli -h cache.plume.internal", "allow"],
      ["printf 'GET session:1\\n' | redis-cli", "allow"],
      ["printf 'create refs/heads/spike HEAD\\n' | git update-ref --stdin", "allow"],
      ["echo FLUSHALL | redis-cli -h cache.plume.internal", "block"],
      ["redis-cli -h cache <<'EOF'\nSET a 1\nFLUSHDB\nEOF", "block"],
      ["printf 'delete refs/heads/release/1.4\\ndelete refs/heads/release/1.5\\n' | git update-ref --stdin", "ask"],
      ["echo 'update refs/heads/main HEAD~3' | git update-ref --stdin", "ask"],
    ]);
  });

  it("a cloud instance metadata credential path is a secret source, by any client, Bash or MCP", () => {
    table([
      ["curl -s http://169.254.169.254/latest/meta-data/instance-id", "allow"],
      ["curl -s http://169.254.169.254/latest/meta-data/placement/region", "allow"],
      ["curl http://169.254.169.254/latest/meta-data/iam/security-credentials/plume-role", "block"],
      ["curl -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token", "block"],
      ["curl -H Metadata:true 'http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://management.azure.com/'", "block"],
      ["wget -qO- http://169.254.170.2/v2/credentials/abc", "block"],
      ["python3 -c 'import requests; print(requests.get(\"http://169.254.169.254/latest/meta-data/iam/security-credentials/r\").text)'", "block"],
    ]);
    assert.equal(mcp("mcp__fetch__fetch", { url: "http://169.254.169.254/latest/meta-data/instance-id" }).action, "allow");
    assert.equal(mcp("mcp__fetch__fetch", { url: "https://docs.python.org/3/" }).action, "allow");
    const v = mcp("mcp__fetch__fetch", { url: "http://169.254.169.254/latest/meta-data/iam/security-credentials/plume-role" });
    assert.equal(v.action, "block", v.reason);
    assert.equal(v.rule?.id, "remote-read-secret");
  });

  it("one named file of a remote repository deleted on a work branch is a commit, as everyday as git rm and push", () => {
    const file = { owner: "plume", repo: "plume-factory", path: "docs/old-setup.md", message: "docs: remove outdated setup page", branch: "docs/cleanup" };
    assert.equal(mcp("mcp__github__delete_file", file).action, "allow");
    assert.equal(mcp("mcp__gitlab__delete_file", { project_id: "plume/x", file_path: "a.txt", branch: "fix/typo" }).action, "allow");
    // On the published line (named, or the default when left out) the commit lands unreviewed.
    assert.equal(mcp("mcp__github__delete_file", { ...file, branch: "main" }).action, "ask");
    assert.equal(mcp("mcp__github__delete_file", { owner: "plume", repo: "plume-factory", path: "docs/old-setup.md", message: "m" }).action, "ask");
    assert.equal(mcp("mcp__github__delete_file", { ...file, path: "/" }).action, "ask");
    assert.equal(mcp("mcp__github__delete_file", { ...file, path: "docs/*" }).action, "ask");
    assert.equal(mcp("mcp__github__delete_repository", { owner: "plume", repo: "plume-factory" }).action, "ask");
  });
});
