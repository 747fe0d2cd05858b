// `npm start` runs the extension with the user's Damage Control configuration (issue 38: it had a
// config folder of its own, so an exception written from the feed was invisible to the CLI).
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { userRulesFile } from "../../src/core/layer-files";
import { repoRoot } from "./support";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { codeServerEnv, userConfigDir } = require(path.join(repoRoot, "scripts", "start-env.js")) as {
  codeServerEnv: (profile: string, base: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  userConfigDir: (env: NodeJS.ProcessEnv) => string;
};

describe("npm start's environment", () => {
  for (const base of [{ HOME: "/home/u" }, { HOME: "/home/u", XDG_CONFIG_HOME: "/home/u/cfg" }] as NodeJS.ProcessEnv[]) {
    it(`the extension in code-server and the CLI read the same user rules file (${base.XDG_CONFIG_HOME ? "XDG_CONFIG_HOME set" : "default"})`, () => {
      const env = codeServerEnv("/tools/start-profile", base);
      assert.equal(userRulesFile(env), userRulesFile(base));
      assert.equal(path.dirname(userRulesFile(base)), userConfigDir(base), "the folder npm start prints");
      // code-server's own data stays in its profile.
      assert.equal(env.XDG_DATA_HOME, "/tools/start-profile/xdg-data");
    });
  }
});
