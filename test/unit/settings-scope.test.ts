// Security settings a repository must not set: user/machine scope wins; a workspace may only tighten.
import * as assert from "node:assert/strict";
import { enabledScope, insideFolder, portScope, postureScope, rulesFileScope } from "../../src/views/settings-scope";
import { english } from "../../src/views/translate";

describe("settings scope", () => {
  it("a workspace damageControl.enabled: false does not switch the guard off, and says so", () => {
    const s = enabledScope({ defaultValue: true, workspaceValue: false });
    assert.equal(s.value, true);
    assert.match(s.ignored!, /damageControl\.enabled/);
    // Control: the user's own false is honoured.
    assert.deepEqual(enabledScope({ defaultValue: true, globalValue: false }), { value: false });
    // A workspace may switch it on over a user's false (tightening).
    assert.equal(enabledScope({ defaultValue: true, globalValue: false, workspaceValue: true }).value, true);
  });

  it("posture: a workspace may choose governed, never advisory over a governed user", () => {
    assert.equal(postureScope({ defaultValue: "advisory", workspaceValue: "governed" }).value, "governed");
    const s = postureScope({ defaultValue: "advisory", globalValue: "governed", workspaceFolderValue: "advisory" });
    assert.equal(s.value, "governed");
    assert.ok(s.ignored);
  });

  it("port: user scope only", () => {
    const s = portScope({ defaultValue: 0, workspaceValue: 4000 });
    assert.equal(s.value, 0);
    assert.ok(s.ignored);
  });

  it("rulesFile: a workspace may name a file inside the folder, not outside it", () => {
    assert.equal(rulesFileScope({ defaultValue: ".pi/damage-control-rules.yaml", workspaceValue: "config/dc.yaml" }).value, "config/dc.yaml");
    for (const outside of ["/tmp/x.yaml", "../x.yaml", "~/x.yaml", "a/../../x.yaml"]) {
      const s = rulesFileScope({ defaultValue: ".pi/damage-control-rules.yaml", workspaceValue: outside });
      assert.equal(s.value, ".pi/damage-control-rules.yaml", outside);
      assert.ok(s.ignored, outside);
    }
    // The user's own setting may point anywhere.
    assert.equal(rulesFileScope({ defaultValue: ".pi/damage-control-rules.yaml", globalValue: "/etc/team.yaml" }).value, "/etc/team.yaml");
    assert.equal(insideFolder("a/b/../c.yaml"), true);
  });

  it("the ignored-setting warning goes through the given translator (vscode.l10n.t), English without one", () => {
    const seen: string[] = [];
    const t = (m: string, ...a: Array<string | number | boolean>) => (seen.push(m), `T:${english(m, ...a)}`);
    const s = portScope({ defaultValue: 0, workspaceValue: 4000 }, t);
    assert.equal(seen.length, 1);
    assert.match(seen[0], /\{0\}/, "the message is a template with placeholders, not a glued sentence");
    assert.equal(s.ignored, "T:the workspace sets damageControl.port to 4000; a repository may not loosen the guard, so your user setting (0) applies");
    // Control: without a translator the same English text.
    assert.equal(portScope({ defaultValue: 0, workspaceValue: 4000 }).ignored, s.ignored!.slice(2));
  });
});
