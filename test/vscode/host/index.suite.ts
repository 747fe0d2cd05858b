// Entry point that VS Code loads in the EXTENSION HOST (extensionTestsPath): it runs mocha (tdd
// UI: suite/test) over the bundled host tests beside it, out/test/vscode/host/*.test.js. Those tests
// share the extension's `vscode` API object and its process.
//
// Reporting back: mocha's spec report goes to console, which the workbench forwards to
// window.codeAutomationLog, each line tagged with HOST_TAG (./protocol.ts). The counts and each
// failure are written as JSON to $DC_HOST_RESULTS_FILE (the extension host inherits code-server's
// environment and shares the filesystem).
// run() resolves when all passed and rejects otherwise; VS Code then calls codeAutomationExit(0|1).
//
// Env: DC_HOST_RESULTS_FILE (where to write counts), DC_HOST_GREP (run only matching tests).
import * as fs from "node:fs";
import * as path from "node:path";
import * as util from "node:util";
import Mocha from "mocha";
import { HOST_TAG, type HostResults } from "./protocol";

/** Prefixes mocha's report lines with HOST_TAG until the returned function is called. (The
 *  extension host's console methods cannot be replaced: VS Code defines them with a no-op setter,
 *  so other console output is only in the runner's console log file.) */
function tagReporterOutput(): () => void {
  // Mocha's reporters print through Base.consoleLog (console.log, captured when mocha loaded).
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void };
  const saved = base.consoleLog;
  base.consoleLog = (...args) => saved.call(console, util.format(...args).replace(/^/gm, HOST_TAG));
  return () => (base.consoleLog = saved);
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "tdd", color: false, timeout: 30_000, reporter: "spec" });
  if (process.env.DC_HOST_GREP) mocha.grep(process.env.DC_HOST_GREP);
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith(".test.js")).sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  const results: HostResults = { passes: 0, failures: 0, pending: 0, failed: [] };
  const write = () => {
    untag();
    const file = process.env.DC_HOST_RESULTS_FILE;
    if (file) fs.writeFileSync(file, JSON.stringify(results, null, 2));
  };
  const untag = tagReporterOutput();
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        Object.assign(results, { passes: runner.stats?.passes ?? 0, failures, pending: runner.stats?.pending ?? 0 });
        write();
        if (failures > 0) reject(new Error(`${failures} extension host test(s) failed`));
        else if (files.length === 0) reject(new Error(`no *.test.js beside ${__filename}`));
        else resolve();
      });
      runner.on("fail", (test, err) => results.failed.push({ title: test.fullTitle(), error: String(err?.stack ?? err) }));
    } catch (e) {
      results.failures += 1;
      results.failed.push({ title: "loading the host tests", error: String((e as Error)?.stack ?? e) });
      write();
      reject(e);
    }
  });
}
