// Outer side of the extension host suite (run by scripts/run-vscode-tests.js, or by hand:
// `node out/test/vscode/run-host-suite.main.js`). Starts code-server, opens the workbench with
// extensionTestsPath = out/test/vscode/host/index.suite.js, echoes the host's console (mocha's
// spec output; the workbench's own console goes to test-results/vscode-host-console.log), waits for codeAutomationExit, and writes {passes,failures,pending} to
// $DC_STATS_FILE. Screenshot and server log on failure. Exit code 0 only when all passed.
// The workbench opens the fixture workspace (support/fixture-workspace.ts) with
// DAMAGE_CONTROL_STATE_DIR set to the fixture's temp state dir; the host tests find both paths in
// DC_FIXTURE_WORKSPACE / DC_FIXTURE_STATE_DIR.
// Env: DC_HOST_SUITE_TIMEOUT_MS (default 180000), DC_HOST_GREP (passed to the host's mocha).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HOST_TAG, type HostResults } from "./host/protocol";
import { makeFixture } from "./support/fixture-workspace";
import { resultsDir } from "./support/paths";
import { openWorkbench, screenshot, type Workbench } from "./support/workbench";

async function main(): Promise<number> {
  const timeoutMs = Number(process.env.DC_HOST_SUITE_TIMEOUT_MS || 180_000);
  const suite = path.join(__dirname, "host", "index.suite.js");
  if (!fs.existsSync(suite)) throw new Error(`${suite} missing: run node esbuild.js`);
  const resultsFile = path.join(os.tmpdir(), `dc-host-results-${process.pid}.json`);
  fs.rmSync(resultsFile, { force: true });
  const fixture = makeFixture("host-suite");
  const env: Record<string, string> = { DC_HOST_RESULTS_FILE: resultsFile, ...fixture.env };
  if (process.env.DC_HOST_GREP) env.DC_HOST_GREP = process.env.DC_HOST_GREP;

  const consoleLog = path.join(resultsDir(), "vscode-host-console.log");
  const consoleFd = fs.openSync(consoleLog, "w");
  const onHostLog = (type: string, text: string) => {
    fs.writeSync(consoleFd, `${type}: ${text}\n`);
    for (const line of text.split("\n")) {
      if (line.startsWith(HOST_TAG)) (type === "error" ? console.error : console.log)(`  ${line.slice(HOST_TAG.length)}`);
    }
  };

  const started = Date.now();
  let wb: Workbench | undefined;
  let exit: number | "timeout" = "timeout";
  try {
    wb = await openWorkbench({
      extensionTestsPath: suite,
      workspaceFolder: fixture.workspace,
      env,
      waitForStatusItem: null, // the suite may finish before the status bar is looked at
      timeoutMs,
      onHostLog,
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), Math.max(1000, timeoutMs - (Date.now() - started)))));
    exit = await Promise.race([wb.exitCode, timedOut]);
    clearTimeout(timer);
  } catch (e) {
    console.error(`[host-suite] ${(e as Error).message}`);
    exit = 1;
  }

  let results: HostResults | null = null;
  if (fs.existsSync(resultsFile)) results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
  fs.rmSync(resultsFile, { force: true });
  const ok = exit === 0 && results !== null && results.failures === 0;
  if (!ok) {
    if (exit === "timeout") console.error(`[host-suite] no codeAutomationExit within ${timeoutMs} ms`);
    // Mocha's report above has the details of failed tests; list just their titles here.
    for (const f of results?.failed ?? []) console.error(`[host-suite] FAILED: ${f.title}`);
    if (wb) {
      const shot = await screenshot(wb.page, "host-suite-failed").catch(() => null);
      if (shot) console.error(`[host-suite] screenshot: ${shot}`);
    }
    console.error(`[host-suite] workbench console: ${consoleLog}`);
    if (!results) {
      // The suite never reported: it did not load, crashed or hung. Show why if we can.
      console.error("[host-suite] the extension host wrote no results (suite did not load or run?)");
      if (wb) {
        console.error(`[host-suite] code-server log tail:\n${wb.server.logTail(40)}`);
        for (const e of wb.pageErrors.slice(-5)) console.error(`[host-suite] page error: ${e}`);
      }
    }
  }
  await wb?.close();
  fs.closeSync(consoleFd);
  if (ok || process.env.DC_KEEP_PROFILE !== "1") fixture.cleanup();
  else console.error(`[host-suite] fixture kept: ${fixture.workspace}`);

  const stats = { passes: results?.passes ?? 0, failures: results?.failures ?? 0, pending: results?.pending ?? 0 };
  if (!ok && stats.failures === 0) stats.failures = 1; // crashed, hung or never reported: still a failure
  if (process.env.DC_STATS_FILE) fs.writeFileSync(process.env.DC_STATS_FILE, JSON.stringify(stats));
  console.log(`[host-suite] ${stats.passes} passed, ${stats.failures} failed, ${stats.pending} pending in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${exit})`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[host-suite] ${(e as Error)?.stack ?? e}`);
    if (process.env.DC_STATS_FILE) fs.writeFileSync(process.env.DC_STATS_FILE, JSON.stringify({ passes: 0, failures: 1, pending: 0 }));
    process.exit(1);
  },
);
