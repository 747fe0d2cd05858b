// Judging on the caller's thread, with no time limit: what the decision worker runs
// (decider-worker.ts), and what tests of the engine call directly. Production callers use the
// bounded decider in decider.ts, which runs this in a worker it can terminate.
import * as fs from "node:fs";
import * as path from "node:path";
import type { WireRequest } from "../engine/agents/types";
import { judge } from "../engine/judge";
import type { Decider } from "./decider";
import { withSelfProtection } from "./self-program";

export function existingRealpath(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    // The file may not exist yet (a write): resolve its folder instead.
    try {
      return path.join(fs.realpathSync.native(path.dirname(p)), path.basename(p));
    } catch {
      return undefined;
    }
  }
}

/** A small text file as it is on disk (the guard's own settings files), else undefined. */
export function existingText(p: string): string | undefined {
  try {
    const st = fs.statSync(p);
    if (!st.isFile() || st.size > 1024 * 1024) return st.isFile() ? "\u0000too large" : undefined;
    return fs.readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
}

/** true in development and test bundles, false (and the seam compiled out) in --production. */
declare const __DC_TEST_SEAMS__: boolean;

/**
 * Test seam for the fail-closed matrix: with DAMAGE_CONTROL_TEST_FAULT=throw in the environment,
 * the engine throws on any request that contains DC_INJECT_FAULT. It can only turn a decision
 * into an error, and an error is a refusal. Not in production bundles.
 */
export function injectedFault(req: WireRequest): void {
  if (!__DC_TEST_SEAMS__) return;
  if (process.env.DAMAGE_CONTROL_TEST_FAULT === "throw" && JSON.stringify(req.call ?? req.raw ?? null).includes("DC_INJECT_FAULT")) {
    throw new Error("injected engine fault (DAMAGE_CONTROL_TEST_FAULT)");
  }
}

/** Judges on the caller's thread, with no time limit: only where no worker bundle exists. */
export const inProcessDecider: Decider = {
  async judge(req, rules, ctx, posture) {
    injectedFault(req);
    const judgement = judge(req, rules, { ...ctx, realpath: existingRealpath, readText: existingText }, posture);
    return withSelfProtection(judgement, req, { cwd: req.cwd ?? ctx.folder, home: ctx.home, ...ctx.self });
  },
  close() {},
};
