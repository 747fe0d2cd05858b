// Sends the endpoint guarding a folder one ask-rule call (`git push`) as Claude Code would, so a
// newcomer sees the modal without an agent: node scripts/demo-ask.js [FOLDER]
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const folder = path.resolve(process.argv[2] || path.join(require("node:os").homedir(), "damage-control-demo"));
const r = spawnSync(process.execPath, [path.join(__dirname, "..", "dist", "cli.js"), "endpoint", "--cwd", folder], { encoding: "utf8" });
if (r.status !== 0) {
  console.error(r.stderr.trim() || "no endpoint: is VS Code open on the folder?");
  process.exit(1);
}
const { url, token } = JSON.parse(r.stdout);
const body = { hook_event_name: "PreToolUse", session_id: "demo", cwd: folder, tool_name: "Bash", tool_input: { command: "git push origin main" } };
console.log(`asking ${url} … answer the modal in VS Code (30 s)`);
fetch(`${url}/claude/hook`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
  .then((res) => res.json())
  .then((answer) => console.log(JSON.stringify(answer, null, 2)))
  .catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
