// Default rule family: credential stores (issue 35). Reading the file of a sign-in is refused —
// the agents' own, code hosts, containers and clusters, package registries, clouds, databases —
// and using it through its own tool passes. Control: the same reads with the block removed pass.
import * as assert from "node:assert/strict";
import { defaultRules } from "../../src/engine/rules/defaults";
import { assertAllowed, assertDecidedBy, judge } from "./defaults-helpers";

const READS: [string, string][] = [
  ["~/.claude/.credentials.json", "cat ~/.claude/.credentials.json"],
  ["~/.codex/auth.json", "cat ~/.codex/auth.json"],
  ["~/.gemini/oauth_creds.json", "jq . ~/.gemini/oauth_creds.json"],
  ["~/.qwen/oauth_creds.json", "cat ~/.qwen/oauth_creds.json"],
  ["~/.local/share/opencode/auth.json", "cat ~/.local/share/opencode/auth.json"],
  ["~/.netrc", "cat ~/.netrc"],
  ["~/.git-credentials", "grep github ~/.git-credentials"],
  ["~/.config/git/credentials", "cat ~/.config/git/credentials"],
  ["~/.config/gh/hosts.yml", "cat ~/.config/gh/hosts.yml"],
  ["~/.docker/config.json", "base64 ~/.docker/config.json"],
  ["~/.kube/", "cat ~/.kube/config"],
  ["~/.npmrc", "cat ~/.npmrc"],
  ["~/.pypirc", "cat ~/.pypirc"],
  ["~/.cargo/credentials.toml", "cat ~/.cargo/credentials.toml"],
  ["~/.gem/credentials", "cp ~/.gem/credentials /tmp/c"],
  ["~/.config/gcloud/", "cat ~/.config/gcloud/application_default_credentials.json"],
  ["~/.azure/", "cat ~/.azure/msal_token_cache.json"],
  ["~/.terraform.d/credentials.tfrc.json", "cat ~/.terraform.d/credentials.tfrc.json"],
  ["~/.vault-token", "cat ~/.vault-token"],
  ["~/.pgpass", "cat ~/.pgpass"],
  ["~/.my.cnf", "head ~/.my.cnf"],
  ["~/.cache/huggingface/token", "cat ~/.cache/huggingface/token"],
];

describe("defaults: credential stores (zero-access)", () => {
  for (const [entry, command] of READS) {
    it(`${command} → block by ${entry}`, () => {
      assertDecidedBy({ path: entry }, "block", [command]);
      // Control: without the entry the read passes, so this entry is what refuses it.
      const r = defaultRules();
      const without = { ...r, zeroAccessPaths: r.zeroAccessPaths.filter((p) => p.path !== entry) };
      assert.equal(judge(command, without).action, "allow", `${command} refused without ${entry}`);
    });
  }

  it("using them through their own tool passes", () => {
    assertAllowed([
      "git fetch origin",
      "git push origin feature",
      "docker pull nginx:1.27",
      "kubectl get pods -n web",
      "kubectl --kubeconfig ~/.kube/config get pods",
      "npm install",
      "pip install requests",
      "cargo build",
      "gh pr list",
      "aws s3 ls",
      "gcloud compute instances list",
      "psql -h db -U app -c 'select 1'",
      "terraform plan",
      "cat ~/.codex/config.toml",
    ]);
  });
});
