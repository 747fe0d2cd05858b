// node dist/bench/snapshots.js [--quick]: the snapshot section of `npm run bench` on its own.
import * as fs from "node:fs";
import * as path from "node:path";
import { corpusDir, loadCorpus } from "./lib/corpus";
import { benchSnapshots } from "./lib/snapshots";

const root = path.resolve(__dirname, "../..");
const dir = corpusDir(root);
const calls = loadCorpus(path.join(dir, "commands.jsonl")).map((c) => ({ tool: c.tool, input: c.input }));
console.log("Snapshots (issue 24)");
benchSnapshots(calls, fs.readFileSync(path.join(dir, "rules.yaml"), "utf8"), process.argv.includes("--quick"));
