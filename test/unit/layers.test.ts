// Layers (managed → user → workspace → defaults), disable, exceptions, the guard's own settings.
import * as assert from "node:assert/strict";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import { changedProtectedKeys, parseJsonc } from "../../src/engine/rules/guard-settings";
import { additionsOnly, coveredBy, exactCommandPattern, lintExceptions, looseningItems, looseningOf, mergeLayers, policyOnly, type Layer } from "../../src/engine/rules/layers";
import { lintRulesText } from "../../src/engine/rules/lint-file";
import { parseRules } from "../../src/engine/rules/parse";
import type { RuleSet } from "../../src/engine/types";

const ctx = { cwd: "/home/dev/app", home: "/home/dev", root: "/home/dev/app" };
const rules = (text: string): RuleSet => {
  const p = parseRules(text);
  assert.equal(p.ok, true, JSON.stringify(p.diagnostics));
  return p.rules;
};
const floor: Layer = { name: "default", rules: defaultRules(), trusted: true };
const bash = (command: string) => ({ tool: "Bash", input: { command } });
const word = (set: RuleSet, command: string) => decide(bash(command), set, ctx, "claude").action;

describe("rule layers", () => {
  it("every default rule has a unique id", () => {
    const ids = defaultRules().bashToolPatterns.map((r) => r.id);
    assert.ok(ids.every((i) => typeof i === "string" && /^[a-z0-9-]+$/.test(i)));
    assert.equal(new Set(ids).size, ids.length);
  });

  it("parses disable and allow, and rejects a bad id, a duplicate id and an exception without reason", () => {
    const r = rules("disable: [sudo]\nallow:\n  - command: 'rm -rf vendor'\n    reason: build output\n  - path: dist/\n    reason: generated\n");
    assert.deepEqual(r.disable, ["sudo"]);
    assert.deepEqual(r.allow!.map((e) => e.kind), ["command", "path"]);
    const bad = parseRules("bashToolPatterns:\n  - id: Bad_Id\n    pattern: x\n    reason: r\n  - id: a\n    pattern: y\n    reason: r\n  - id: a\n    pattern: z\n    reason: r\nallow:\n  - command: x\n");
    assert.deepEqual(bad.diagnostics.filter((d) => d.severity === "error").map((d) => d.code), ["invalid-id", "duplicate-id", "missing-reason"]);
  });

  it("add: a workspace file that lists one rule keeps the floor (leaving a default out removes nothing)", () => {
    const ws: Layer = { name: "workspace", rules: rules("bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\n"), trusted: false };
    const merged = mergeLayers([ws, floor]);
    assert.equal(word(merged, "make"), "block");
    assert.equal(word(merged, "sudo ls"), "block");
    assert.equal(word(merged, "rm -rf ~"), "block");
    // Control: the workspace file alone (the old meaning) would allow sudo.
    assert.equal(word(policyOnly(ws.rules), "sudo ls"), "allow");
  });

  it("an empty committed rules file switches nothing off", () => {
    const merged = mergeLayers([{ name: "workspace", rules: rules("bashToolPatterns: []\nzeroAccessPaths: []\nreadOnlyPaths: []\nnoDeletePaths: []\n"), trusted: false }, floor]);
    assert.equal(word(merged, "rm -rf ~"), "block");
    assert.equal(word(merged, "git push --force origin main"), "block");
    assert.equal(decide({ tool: "Read", input: { file_path: "/home/dev/.ssh/id_rsa" } }, merged, ctx, "claude").action, "block");
    assert.equal(decide(bash("rm -rf ~"), merged, ctx, "claude").rule?.layer, "default");
  });

  it("remove: the user layer disables a default by id; an untrusted workspace cannot, an approved one can", () => {
    const drop = rules("disable: [sudo]\n");
    assert.equal(word(mergeLayers([{ name: "user", rules: drop, trusted: true }, floor]), "sudo ls"), "allow");
    assert.equal(word(mergeLayers([{ name: "workspace", rules: drop, trusted: false }, floor]), "sudo ls"), "block");
    assert.equal(word(mergeLayers([{ name: "workspace", rules: drop, trusted: true }, floor]), "sudo ls"), "allow");
  });

  it("a weaker layer cannot disable a stronger layer's rule", () => {
    const managed: Layer = { name: "managed", rules: rules("bashToolPatterns:\n  - id: no-curl\n    pattern: '\\bcurl\\b'\n    reason: platform policy\n"), trusted: true };
    const user: Layer = { name: "user", rules: rules("disable: [no-curl]\n"), trusted: true };
    const merged = mergeLayers([user, managed, floor]);
    assert.equal(word(merged, "curl x"), "block");
    assert.equal(decide(bash("curl x"), merged, ctx, "claude").rule?.layer, "managed");
  });

  it("tighten: a workspace rule applies at once, without approval", () => {
    const ws: Layer = { name: "workspace", rules: rules("bashToolPatterns:\n  - pattern: '\\bnpm\\s+publish\\b'\n    reason: releases go through CI\n"), trusted: false };
    const merged = mergeLayers([ws, floor]);
    assert.equal(word(merged, "npm publish"), "block");
    assert.equal(decide(bash("npm publish"), merged, ctx, "claude").rule?.layer, "workspace");
  });

  it("equal strength: the strongest layer's rule is reported, then the first in file order", () => {
    const user: Layer = { name: "user", rules: rules("bashToolPatterns:\n  - pattern: '\\bsudo\\s+ls\\b'\n    reason: mine\n"), trusted: true };
    const v = decide(bash("sudo ls"), mergeLayers([floor, user]), ctx, "claude");
    assert.equal(v.rule?.layer, "user");
    assert.match(v.reason, /mine/);
  });

  it("loosen: an exception lifts a default refusal for exactly that command (whole-command match)", () => {
    const user: Layer = { name: "user", rules: rules("allow:\n  - command: 'rm -rf vendor'\n    reason: reinstall\n"), trusted: true };
    const merged = mergeLayers([user, floor]);
    const v = decide(bash("rm -rf vendor"), merged, ctx, "claude");
    assert.equal(v.action, "allow");
    assert.equal(v.exception?.layer, "user");
    assert.equal(word(merged, "rm -rf vendor ~"), "block");
    assert.equal(word(merged, "rm -rf vendor && rm -rf ~"), "block");
    // Control: without the exception it is refused.
    assert.equal(word(mergeLayers([floor]), "rm -rf vendor"), "block");
  });

  it("an unapproved workspace exception does nothing; an approved one works", () => {
    const ex = rules("allow:\n  - command: 'rm -rf vendor'\n    reason: build output\n");
    assert.equal(word(mergeLayers([{ name: "workspace", rules: ex, trusted: false }, floor]), "rm -rf vendor"), "block");
    assert.equal(word(mergeLayers([{ name: "workspace", rules: ex, trusted: true }, floor]), "rm -rf vendor"), "allow");
  });

  it("exceptions never apply to what a stronger layer refuses", () => {
    const managed: Layer = { name: "managed", rules: rules("bashToolPatterns:\n  - pattern: '\\brm\\s+-rf\\b'\n    reason: platform\n"), trusted: true };
    const user: Layer = { name: "user", rules: rules("allow:\n  - command: 'rm -rf vendor'\n    reason: mine\n"), trusted: true };
    const v = decide(bash("rm -rf vendor"), mergeLayers([managed, user, floor]), ctx, "claude");
    assert.equal(v.action, "block");
    assert.equal(v.rule?.layer, "managed");
  });

  it("exceptions never open a zero-access path, and lint says so", () => {
    const user = rules("allow:\n  - path: '~/.ssh/'\n    reason: nope\n  - command: 'cat ~/\\.ssh/id_rsa'\n    reason: nope\n");
    const merged = mergeLayers([{ name: "user", rules: user, trusted: true }, floor]);
    assert.equal(decide({ tool: "Read", input: { file_path: "/home/dev/.ssh/id_rsa" } }, merged, ctx, "claude").action, "block");
    assert.equal(word(merged, "cat ~/.ssh/id_rsa"), "block");
    const lint = lintExceptions(user, merged, { root: ctx.root, home: ctx.home });
    assert.deepEqual(lint.map((d) => `${d.severity} ${d.code}`), ["error exception-zero-access", "warning exception-unused"]);
  });

  it("a user's command exception lifts a default effect rule (issue 23), and lint counts it as used", () => {
    const user = rules("allow:\n  - command: 'restic -r /srv/scratch forget --prune .*'\n    reason: my scratch repository\n  - command: 'restic -r /srv/scratch prune'\n    reason: same\n");
    const merged = mergeLayers([{ name: "user", rules: user, trusted: true }, floor]);
    assert.equal(word(merged, "restic -r /srv/scratch forget --prune --keep-last 1"), "allow");
    assert.equal(word(merged, "restic -r /srv/prod forget --prune --keep-last 1"), "block");
    assert.equal(word(mergeLayers([floor]), "restic -r /srv/scratch prune"), "block");
    assert.deepEqual(lintExceptions(user, merged, { root: ctx.root, home: ctx.home }), []);
  });

  it("a path exception lifts read-only and no-delete; lint warns about one that lifts nothing", () => {
    const user = rules("allow:\n  - path: package-lock.json\n    reason: regenerated here\n  - path: src/\n    reason: nothing protects it\n");
    const merged = mergeLayers([{ name: "user", rules: user, trusted: true }, floor]);
    assert.equal(decide({ tool: "Write", input: { file_path: "/home/dev/app/package-lock.json", content: "{}" } }, merged, ctx, "claude").action, "allow");
    assert.equal(decide({ tool: "Write", input: { file_path: "/home/dev/app/package-lock.json", content: "{}" } }, mergeLayers([floor]), ctx, "claude").action, "block");
    assert.deepEqual(lintExceptions(user, merged, { root: ctx.root, home: ctx.home }).map((d) => d.code), ["exception-unused"]);
  });

  it("a folder-scoped exception applies in that folder only", () => {
    const user = rules(`allow:\n  - command: '${exactCommandPattern("rm -rf vendor")}'\n    reason: asked\n    folder: /home/dev/app\n`);
    const merged = mergeLayers([{ name: "user", rules: user, trusted: true }, floor]);
    assert.equal(word(merged, "rm -rf vendor"), "allow");
    assert.equal(decide(bash("rm -rf vendor"), merged, { ...ctx, cwd: "/home/dev/other", root: "/home/dev/other" }, "claude").action, "block");
  });

  it("what a file drops, and approval coverage: tightening keeps an approval, new loosening does not", () => {
    const v1 = rules("disable: [sudo]\nallow:\n  - command: 'rm -rf vendor'\n    reason: x\n");
    const l = looseningOf(v1, [defaultRules()]);
    assert.deepEqual(l.drops.map((d) => d.name), ["sudo"]);
    assert.equal(l.exceptions.length, 1);
    const approved = looseningItems(v1);
    const tighter = rules("disable: [sudo]\nallow:\n  - command: 'rm -rf vendor'\n    reason: reworded\nbashToolPatterns:\n  - pattern: x\n    reason: y\n");
    assert.equal(coveredBy(looseningItems(tighter), approved), true);
    const looser = rules("disable: [sudo, git-push-force]\n");
    assert.equal(coveredBy(looseningItems(looser), approved), false);
    assert.deepEqual(additionsOnly(v1).disable, undefined);
  });
});

describe("the guard's own settings", () => {
  const write = (file: string, content: string, onDisk: string | undefined) =>
    decide({ tool: "Write", input: { file_path: file, content } }, mergeLayers([floor]), { ...ctx, readText: () => onDisk } as never, "claude");

  it("a Write that sets damageControl.rulesFile or enabled is refused; one changing only editor.fontSize passes", () => {
    const f = "/home/dev/app/.vscode/settings.json";
    const disk = '{\n  // mine\n  "editor.fontSize": 12,\n}\n';
    assert.equal(write(f, '{"damageControl.rulesFile": "/tmp/x.yaml"}', disk).action, "block");
    assert.equal(write(f, '{"editor.fontSize": 12, "damageControl.enabled": false}', disk).action, "block");
    assert.equal(write(f, '{"editor.fontSize": 14}', disk).action, "allow");
    assert.equal(write(f, '{"chat.useHooks": false}', undefined).action, "block");
  });

  it("an Edit is judged on the file after the edit; the user's settings.json and .code-workspace too", () => {
    const f = "/home/dev/.config/Code/User/settings.json";
    const disk = '{ "editor.fontSize": 12, "damageControl.posture": "governed" }';
    const edit = (o: string, n: string) => decide({ tool: "Edit", input: { file_path: f, old_string: o, new_string: n } }, mergeLayers([floor]), { ...ctx, readText: () => disk } as never, "claude").action;
    assert.equal(edit('"governed"', '"advisory"'), "block");
    assert.equal(edit("12", "14"), "allow");
    assert.deepEqual(changedProtectedKeys('{"settings": {}}', '{"settings": {"damageControl.port": 1}}', true), ["damageControl.port"]);
    assert.deepEqual(changedProtectedKeys("{}", '{"[python]": {"damageControl.enabled": false}}', false), ["[python]/damageControl.enabled"]);
  });

  it("a shell write to .vscode/settings.json is refused (the guard cannot see what it changes)", () => {
    assert.equal(word(mergeLayers([floor]), "echo '{}' > .vscode/settings.json"), "block");
    assert.equal(word(mergeLayers([floor]), "cat .vscode/settings.json"), "allow");
  });

  it("JSONC: comments and trailing commas, but not inside strings", () => {
    assert.deepEqual(parseJsonc('{"a": "//not", /* c */ "b": [1,], }'), { a: "//not", b: [1] });
    assert.equal(parseJsonc("{"), undefined);
  });

  it("the agent cannot switch the guard off through the product (floor patterns and VS Code commands)", () => {
    const f = mergeLayers([floor]);
    for (const c of ["damage-control uninstall claude", "npx damage-control uninstall pi", "damage-control serve --cwd . --rules /tmp/empty.yaml", "code --uninstall-extension damage-control.damage-control", "code --disable-extension=damage-control.damage-control", "code --disable-extensions ."]) {
      assert.equal(word(f, c), "block", c);
    }
    for (const c of ["damage-control check --rules r.yaml", "damage-control doctor", "code --install-extension foo.bar", "code --uninstall-extension foo.bar"]) {
      assert.equal(word(f, c), "allow", c);
    }
    const cmd = (commandId: string, args?: unknown) => decide({ tool: "run_vscode_command", input: { commandId, ...(args !== undefined && { args }) } }, f, ctx, "cli").action;
    assert.equal(cmd("damageControl.disable"), "block");
    assert.equal(cmd("workbench.extensions.uninstallExtension", ["damage-control.damage-control"]), "block");
    assert.equal(cmd("editor.action.formatDocument"), "allow");
  });

  it("the editor's and rules lint's diagnostics include the exceptions' (zero-access: error, lifts nothing: warning)", () => {
    const l = lintRulesText("allow:\n  - path: .env\n    reason: no\n  - command: 'ls -la'\n    reason: nothing refuses it\n  - command: 'rm -rf vendor'\n    reason: fine\n", { root: ctx.root, home: ctx.home });
    assert.deepEqual(l.diagnostics.map((d) => `${d.range.start.line + 1} ${d.severity} ${d.code}`), ["2 error exception-zero-access", "4 warning exception-unused"]);
    assert.equal(l.ok, false);
  });
});
