// The environment `npm start` gives code-server (and so the extension host): code-server's own
// data and cache go under its profile, but XDG_CONFIG_HOME stays the user's, so the extension
// reads and writes the user's Damage Control configuration (~/.config/damage-control: "Allow in
// this folder" exceptions, user rules) where the `damage-control` CLI reads it (issue 38: an
// exception written from the feed was invisible to `damage-control exceptions list`).
// code-server's own config file is passed with --config. Tested in test/unit/start-env.test.ts.
const os = require("node:os");
const path = require("node:path");

function codeServerEnv(profile, base = process.env) {
  return { ...base, XDG_DATA_HOME: path.join(profile, "xdg-data"), XDG_CACHE_HOME: path.join(profile, "xdg-cache") };
}

/** The user's Damage Control configuration folder, as src/core/layer-files.ts finds it. */
function userConfigDir(env = process.env) {
  if (env.DAMAGE_CONTROL_USER_RULES) return path.dirname(env.DAMAGE_CONTROL_USER_RULES);
  return path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config"), "damage-control");
}

module.exports = { codeServerEnv, userConfigDir };
