// Shared by the extension host tests (imported, not a test file itself). They run in the same
// process as the extension and share its `vscode` API object, so a test can stub a window
// function the extension calls and restore it afterwards.
import * as vscode from "vscode";
import type { DamageControlApi } from "../../../src/extension";
import { fixtureFromEnv, waitForEndpoint } from "../support/fixture-workspace";
import { extensionId } from "../support/paths";

/** The extension's API, once its first start (endpoint up or down) is done. */
export async function dcApi(): Promise<DamageControlApi> {
  const ext = vscode.extensions.getExtension<DamageControlApi>(extensionId());
  if (!ext) throw new Error(`extension ${extensionId()} not found`);
  const api = await ext.activate();
  await api.ready;
  return api;
}

/** The endpoint as an agent finds it (registry + token in the fixture's state dir), checked
 *  against the one the extension says it runs. */
export async function dcEndpoint(api: DamageControlApi): Promise<{ url: string; token: string }> {
  if (!api.host.endpoint) throw new Error(`the endpoint is down: ${api.host.down}`);
  const found = await waitForEndpoint(fixtureFromEnv(), 10_000);
  if (found.url !== api.host.endpoint.url) throw new Error(`registry says ${found.url}, the extension runs ${api.host.endpoint.url}`);
  return found;
}

export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(v: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

type WindowFn = "showWarningMessage" | "showInformationMessage";

/** Replaces vscode.window[name] (the object the extension calls too) until the returned function runs. */
export function stubWindow(name: WindowFn, impl: (...args: any[]) => Thenable<unknown>): () => void { // eslint-disable-line @typescript-eslint/no-explicit-any
  const win = vscode.window as unknown as Record<string, unknown>;
  const saved = win[name];
  win[name] = impl;
  if (win[name] !== impl) throw new Error(`vscode.window.${name} cannot be replaced here`);
  return () => {
    win[name] = saved;
  };
}

/** One call of the stubbed modal: what the extension passed, and the answer to give. */
export interface ModalCall {
  message: string;
  options: vscode.MessageOptions;
  items: string[];
  answer: Deferred<string | undefined>;
}

/** Stubs showWarningMessage so that each modal is recorded and waits for the test's answer. */
export function stubModal(): { calls: ModalCall[]; restore: () => void } {
  const calls: ModalCall[] = [];
  const restore = stubWindow("showWarningMessage", (message: string, options: vscode.MessageOptions, ...items: string[]) => {
    const call: ModalCall = { message, options, items, answer: deferred<string | undefined>() };
    calls.push(call);
    return call.answer.promise;
  });
  return { calls, restore };
}

/** Sets damageControl.askTimeoutSeconds in the user settings; returns a function restoring the old value. */
export async function setAskTimeout(seconds: number): Promise<() => Promise<void>> {
  const config = () => vscode.workspace.getConfiguration("damageControl");
  const before = config().inspect<number>("askTimeoutSeconds")?.globalValue;
  await config().update("askTimeoutSeconds", seconds, vscode.ConfigurationTarget.Global);
  await until(() => config().get<number>("askTimeoutSeconds") === seconds, 5000, `askTimeoutSeconds = ${seconds}`);
  return async () => {
    await config().update("askTimeoutSeconds", before, vscode.ConfigurationTarget.Global);
  };
}
