// Issue 36, family 10: an MCP call gets what the same effect gets through Bash — text sent to a
// terminal is a command, SQL under any key of a database tool (lists included), a browser opening
// a local path reads it, a filter left out is an empty filter, a single-item delete is as everyday
// as its Bash form. Everyday first.
import * as assert from "node:assert/strict";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import type { Action } from "../../src/engine/types";
import { CWD, HOME } from "./defaults-helpers";

const call = (tool: string, input: Record<string, unknown>, rules = defaultRules()) => decide({ tool, input }, rules, { cwd: CWD, home: HOME });

function expect(action: Action, cases: [string, Record<string, unknown>][]): void {
  for (const [tool, input] of cases) {
    const v = call(tool, input);
    assert.equal(v.action, action, `${tool} ${JSON.stringify(input)}: ${v.action} ${v.reason}`);
  }
}

describe("defaults: MCP calls, one effect one answer (issue 36)", () => {
  it("passes single-item deletes, filtered deletes, titles that mention SQL, browsing a web page", () => {
    expect("allow", [
      ["mcp__redis__delete", { key: "session:1" }],
      ["mcp__k8s__kubectl_delete", { resourceType: "pod", name: "web-1" }],
      ["mcp__mongo__delete_many", { collection: "users", filter: { _id: "1" } }],
      ["mcp__github__create_issue", { owner: "o", repo: "r", title: "DROP TABLE users fails" }],
      ["mcp__playwright__browser_navigate", { url: "https://example.com" }],
      ["mcp__tmux__send_keys", { session: "s", keys: "npm test Enter" }],
      ["mcp__db__run", { queries: ["SELECT 1", "SELECT 2"] }],
    ]);
  });

  it("refuses what the same effect is refused through Bash", () => {
    expect("block", [
      ["mcp__terminal__send_text", { text: "rm -rf ~\n" }],
      ["mcp__tmux__send_keys", { session: "s", keys: "rm -rf ~ Enter" }],
      ["mcp__playwright__browser_navigate", { url: "file:///home/dev/.ssh/id_rsa" }],
      ["mcp__db__run", { queries: ["SELECT 1", "DROP TABLE users"] }],
      ["mcp__db__query", { input: "DROP TABLE users" }],
      ["mcp__mongo__delete_many", { collection: "users" }],
    ]);
    expect("ask", [["mcp__k8s__kubectl_delete", { resourceType: "namespace", name: "prod" }], ["mcp__kubernetes__uninstall_helm_chart", { name: "postgres", namespace: "dev" }]]);
    // Control: the same SQL as data of a tool that does not run it passes.
    assert.equal(call("mcp__notes__create_note", { input: "DROP TABLE users" }).action, "allow");
  });

  it("an HTTP request and a repository's visibility get the answer of the command line that does the same", () => {
    // The same effect through Bash first: the MCP form must get the same answer.
    const bash = (command: string) => call("Bash", { command }).action;
    expect(bash("curl -X DELETE https://api.example.com/v1/items/3") as Action, [["mcp__fetch__fetch", { url: "https://api.example.com/v1/items/3", method: "DELETE" }]]);
    expect(bash("gh repo edit acme/internal-api --visibility public") as Action, [
      ["mcp__github__update_repository", { owner: "acme", repo: "internal-api", private: false }],
      ["mcp__gitlab__update_project", { owner: "acme", name: "internal-api", visibility: "public" }],
    ]);
    assert.equal(bash("curl -X DELETE https://api.example.com/v1/items/3"), "ask", "a DELETE to another host asks");
    expect("allow", [
      ["mcp__fetch__fetch", { url: "https://api.example.com/v1/items/3" }],
      ["mcp__fetch__fetch", { url: "http://localhost:3000/v1/items/3", method: "DELETE" }],
      ["mcp__github__update_repository", { owner: "acme", repo: "internal-api", description: "x" }],
      ["mcp__github__update_repository", { owner: "acme", repo: "internal-api", private: true }],
    ]);
  });
});
