// Installs node_modules on a fresh clone so `npm start` and `npm test` work as the first command.
// Uses `npm ci` when a lockfile exists (exact, reproducible), else `npm install`.
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
const marker = path.join(root, "node_modules", ".package-lock.json");
const lock = path.join(root, "package-lock.json");

function needsInstall() {
  if (!fs.existsSync(marker)) return true;
  // A lockfile newer than the installed tree means dependencies changed since the last install.
  return fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs + 1000;
}

if (needsInstall()) {
  const args = fs.existsSync(lock) ? ["ci", "--no-audit", "--no-fund"] : ["install", "--no-audit", "--no-fund"];
  console.error(`[damage-control] installing dependencies: npm ${args.join(" ")}`);
  const r = spawnSync("npm", args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
