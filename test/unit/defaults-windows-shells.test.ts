// Issue 36, family 9: PowerShell and cmd started from a Bash tool are read by the PowerShell
// analysis (cmdlets, .NET file APIs, cmd's recursive delete); robocopy's mirror is the recursive
// delete it amounts to in its destination. Everyday first.
import * as assert from "node:assert/strict";
import { defaultRules } from "../../src/engine/rules/defaults";
import { assertAllowed, judge } from "./defaults-helpers";

describe("defaults: PowerShell and cmd from a Bash tool (issue 36)", () => {
  it("passes listing, reading ordinary files and plain copies", () => {
    assertAllowed(["pwsh -c Get-ChildItem", "pwsh -NoProfile -Command \"Get-Content README.md\"", "cmd /c dir", "cmd /c echo hello", "robocopy src dst /E", "pwsh -c \"Remove-Item build/out.txt\""]);
  });

  it("refuses what the same code refuses as a PowerShell call", () => {
    for (const command of [
      'pwsh -c "Remove-Item -Recurse -Force ~"',
      'powershell.exe -NoProfile -Command "Remove-Item -Recurse -Force .git"',
      'pwsh -c "Get-Content .env"',
      "pwsh -c \"[IO.File]::ReadAllText('.env')\"",
      "powershell -c '[System.IO.Directory]::Delete(\".git\", $true)'",
      "cmd /c rd /s /q .git",
      'cmd.exe /c "rmdir /s /q .git"',
      "robocopy empty src /MIR",
      "cmd //c 'rmdir /S /Q src'",
      "pwsh -NoProfile -c 'Get-ChildItem Env:'",
      "cmd.exe /c echo %GITHUB_TOKEN%",
      "robocopy src dst /PURGE",
    ]) {
      const v = judge(command);
      assert.equal(v.action, "block", `${command}: ${v.action} ${v.reason}`);
      // Control: with no rules at all the same line passes (the analysis is what finds the harm).
      assert.equal(judge(command, { ...defaultRules(), bashToolPatterns: [], zeroAccessPaths: [], noDeletePaths: [], readOnlyPaths: [] }).action, "allow", command);
    }
  });
});
