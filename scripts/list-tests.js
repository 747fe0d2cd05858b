// The bundled test files of a tier: every file under DIR ending in SUFFIX, sorted.
const fs = require("node:fs");
const path = require("node:path");

function listTests(dir, suffix = ".test.js") {
  const out = [];
  const walk = (d) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(suffix)) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

module.exports = { listTests };
