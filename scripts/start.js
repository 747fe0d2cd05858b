// `npm start`: install what is missing, build, and guard this folder with `damage-control serve`
// (the endpoint without VS Code). Ctrl-C stops it.
const path = require("node:path");
const { spawnSync, spawn } = require("node:child_process");

const root = path.resolve(__dirname, "..");
for (const step of [["scripts/ensure-deps.js"], ["esbuild.js"]]) {
  const r = spawnSync(process.execPath, step, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const folder = process.env.INIT_CWD || process.cwd();
console.log(`\nDamage Control: guarding ${folder}`);
console.log(`  Claude Code: node ${path.join(root, "dist/cli.js")} install claude --cwd ${folder}`);
console.log(`  pi:          node ${path.join(root, "dist/cli.js")} install pi`);
console.log(`  then export DAMAGE_CONTROL_TOKEN from: node ${path.join(root, "dist/cli.js")} endpoint --cwd ${folder}\n`);
const child = spawn(process.execPath, [path.join(root, "dist/cli.js"), "serve", "--cwd", folder], { stdio: "inherit" });
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
