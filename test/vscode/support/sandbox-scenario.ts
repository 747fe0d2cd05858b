// The sandbox scenario for VS Code's own agent (issue 34), shared by the suite with bubblewrap and
// the fail-closed row without it: a fixture whose rules say `sandbox.mode: required`, with
// cleanup.py (a script that prints .env, zero-access, and rewrites then deletes config/, read-only),
// a HOME of its own, the mock model and an agent workbench with VS Code's own confirmations off
// (only the hook and the kernel are in the way).
import * as fs from "node:fs";
import * as path from "node:path";
import { openAgentWorkbench } from "./chat-agent";
import { startChatModelMock, type ChatModelMock } from "./chat-model-mock";
import { makeFixture, waitForEndpoint, type Fixture } from "./fixture-workspace";
import type { Workbench } from "./workbench";
import { cleanupScript } from "../../support/cleanup-script";

/** The fixture's .env value and config/app.json as it writes them. */
export const SECRET = "not-a-real-secret";
export const CONFIG = '{ "port": 8080 }\n';

export interface SandboxScenario {
  fx: Fixture;
  home: string;
  mock: ChatModelMock;
  wb: Workbench;
  /** The workbench's user settings as VS Code reads them. */
  userSettings(): Record<string, unknown>;
  configFile(): string;
  close(): Promise<void>;
}

/** `env(dir)`: added to the server's environment; `dir` is a scratch folder beside the workspace. */
export async function openSandboxScenario(name: string, env: (dir: string) => Record<string, string> = () => ({})): Promise<SandboxScenario> {
  const fx = makeFixture(name);
  fs.writeFileSync(path.join(fx.workspace, "cleanup.py"), cleanupScript("config", { file: "config/app.json", content: "{}\n" }));
  // `required`: VS Code's sandbox is turned on (under `auto` only its lists are written: turning it
  // on makes VS Code run sandboxed commands without its confirmation, measured).
  fs.appendFileSync(fx.rulesFile, "sandbox:\n  mode: required\n");
  const home = path.join(path.dirname(fx.workspace), "home");
  fs.mkdirSync(home, { recursive: true });
  const mock = await startChatModelMock();
  const wb = await openAgentWorkbench(fx, mock, home, env(path.dirname(fx.workspace)));
  await waitForEndpoint(fx);
  await new Promise((r) => setTimeout(r, 15_000));
  const settingsFile = path.join(wb.server.profileDir, "data", "User", "settings.json");
  return {
    fx,
    home,
    mock,
    wb,
    userSettings: () => {
      try {
        return JSON.parse(fs.readFileSync(settingsFile, "utf8"));
      } catch {
        return {};
      }
    },
    configFile: () => path.join(fx.workspace, "config", "app.json"),
    async close() {
      await wb.close();
      await mock.close();
      fx.cleanup();
    },
  };
}
