// Mocha plumbing shared by the e2e suites: a proxy trap every agent run points at, cleanups
// that run after each test whatever happened, and failure messages that show what the agent
// printed.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { markerFile, type ToolId } from "../../../scripts/test-tools.js";
import type { ClaudeRun } from "./claude";
import type { PiRun } from "./pi";
import { startProxyTrap, type ProxyTrap } from "./proxy-trap";

/**
 * Every agent run gets its proxies pointed at a trap that refuses everything: whatever tries to
 * leave the loopback ends up in trap.attempts, and each test checks that list stayed empty.
 */
export function useProxyTrap(): { readonly trap: ProxyTrap; assertNoEscapes(): void } {
  let trap: ProxyTrap | undefined;
  before(async () => {
    trap = await startProxyTrap();
  });
  after(() => trap?.close());
  return {
    get trap() {
      return trap!;
    },
    assertNoEscapes() {
      assert.deepEqual(trap!.attempts.splice(0), [], "an agent tried to reach a non-loopback host");
    },
  };
}

/** Registers cleanups that run after the current test (servers, projects), newest first. */
export function useCleanups(): (fn: () => unknown) => void {
  let cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.reverse()) await c();
    cleanups = [];
  });
  return (fn) => cleanups.push(fn);
}

/** On failure, show what the agent printed: the assertion alone rarely explains a failure. */
export function explain(run: ClaudeRun | PiRun): string {
  return `exit ${run.exitCode} signal ${run.signal} timedOut ${run.timedOut} in ${run.durationMs} ms\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-2000)}`;
}

export function requireTools(...ids: ToolId[]): void {
  before(function () {
    for (const id of ids) {
      assert.ok(fs.existsSync(markerFile(id)), `${id} is not installed; run: node scripts/install-test-tools.js`);
    }
  });
}
