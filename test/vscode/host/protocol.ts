// What the extension host suite (index.suite.ts) and its outer runner (../run-host-suite.main.ts)
// agree on. The workbench forwards ALL its console output to window.codeAutomationLog (its own
// info and errors too), so the suite prefixes each line of mocha's report with HOST_TAG. The runner
// echoes those lines and writes everything (the tests' and the extension's console.log too) to
// test-results/vscode-host-console.log.
export const HOST_TAG = "[dc-host] ";

/** Written by the suite as JSON to $DC_HOST_RESULTS_FILE. */
export interface HostResults {
  passes: number;
  failures: number;
  pending: number;
  failed: { title: string; error: string }[];
}
