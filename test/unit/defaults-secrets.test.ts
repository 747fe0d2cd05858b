// Default rule family: secrets leaking without naming a file (block).
// Incidents: anthropics/claude-code#56103 (env secrets printed verbatim), #62156 (a parameter
// expansion printed ANTHROPIC_API_KEY), #11271 (env exposed when confused). See docs/defaults.md.
import { assertAllowed, assertDecidedBy, assertFamily } from "./defaults-helpers";

describe("defaults: secrets dumped from the environment (block)", () => {
  it("env / printenv with nothing to run print every variable, whatever reads the output", () => {
    assertFamily("secrets-env-dump", "block", ["env", "printenv", "env -0", "env | grep KEY", "env|grep -i token", "printenv | sort", "env FOO=1", "env -u HOME", "bash -c env", "watch -n1 env", "env | wc -l"]);
  });

  it("printenv of a secret-looking name", () => {
    assertFamily("secrets-printenv-named", "block", ["printenv ANTHROPIC_API_KEY", "printenv HOME OPENAI_API_KEY", "printenv GITHUB_TOKEN", "printenv DATABASE_URL", "printenv AWS_SECRET_ACCESS_KEY"]);
  });

  it("set / export / declare with nothing to set dump every shell variable", () => {
    assertFamily("secrets-shell-dump", "block", ["set", "export", "export -p", "declare -p", "declare -px", "typeset -x", "set | grep -i secret"]);
  });

  it("/proc/*/environ is zero-access", () => {
    assertDecidedBy({ path: "/proc/*/environ" }, "block", ["cat /proc/self/environ", "tr '\\0' '\\n' < /proc/1/environ"]);
  });

  it("passes the routine work around them", () => {
    assertAllowed([
      "env NODE_ENV=test npm test",
      "env -u OPENAI_API_KEY node check.js",
      "env --help",
      "printenv PATH",
      "printenv HOME NODE_ENV",
      "set -euo pipefail",
      "set -x",
      "set -o",
      "export NODE_OPTIONS=--max-old-space-size=4096",
      "export -n FOO",
      "declare -p PATH",
      'test -n "$OPENAI_API_KEY" && echo set',
      "compgen -e",
      "echo $HOME",
      "node -e 'console.log(process.env.NODE_ENV)'",
    ]);
  });
});
