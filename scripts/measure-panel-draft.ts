// How long one structured-editor edit takes on the extension host (apply the edit with yaml's
// document API, then the engine's diagnostics mapped to rows), on the reference rules file:
//   npx esbuild scripts/measure-panel-draft.ts --bundle --platform=node --loader:.yaml=text --outfile=dist/measure-panel-draft.js && node dist/measure-panel-draft.js
import * as fs from "node:fs";
import { applyEdit, checkDraft } from "../src/views/panel/rules-draft";
const text = fs.readFileSync(require("node:path").join(__dirname, "..", "test/fixtures/corpus/rules.yaml"), "utf8");
let t = text; const N = 200; const times: number[] = [];
for (let i = 0; i < N; i++) {
  const s = performance.now();
  const r = applyEdit(t, { op: "set", list: "bashToolPatterns", index: 0, field: "reason", value: "reason " + i });
  if (r.ok) t = r.text;
  checkDraft(t);
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
console.log(`rules.yaml ${text.split("\n").length} lines: edit+check median ${times[N / 2].toFixed(2)} ms, p95 ${times[Math.floor(N * 0.95)].toFixed(2)} ms (n=${N})`);
