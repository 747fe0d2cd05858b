import * as assert from "node:assert/strict";
import { decide } from "../../src/engine/decide";
import { analyzePowerShell } from "../../src/engine/powershell/analyze";
import { readScript } from "../../src/engine/powershell/syntax";
import { defaultRules } from "../../src/engine/rules/defaults";
import type { DecideContext } from "../../src/engine/types";

const ctx: DecideContext = { cwd: "/home/dev/app", home: "/home/dev", root: "/home/dev/app" };
const ps = (command: string) => decide({ tool: "PowerShell", input: { command } }, defaultRules(), ctx);
const act = (command: string) => ps(command).action;
const effects = (command: string) => analyzePowerShell(command, ctx).effects.map((e) => `${e.access}${e.recursive ? "-r" : ""} ${e.path}`);

describe("PowerShell", () => {
  describe("reader: statements, pipelines, parameters, strings, nested code", () => {
    it("splits statements on ; newlines && || and pipelines on |", () => {
      const s = readScript("Get-ChildItem; Write-Host a\nGet-Date && ls || dir | Sort-Object");
      assert.deepEqual(
        s.pipelines.map((p) => p.elements.length),
        [1, 1, 1, 1, 2],
      );
    });
    it("reads -Name, -Name:value, quoted strings with doubled quotes and backtick escapes", () => {
      const el = readScript(`Remove-Item -Path 'it''s here' -Recurse:$false "a\`"b"`).pipelines[0].elements[0];
      assert.equal(el.words[1].param, "Path");
      assert.deepEqual(el.words[2].parts, [{ kind: "lit", text: "it's here" }]);
      assert.equal(el.words[3].param, "Recurse");
      assert.deepEqual(el.words[3].value?.parts, [{ kind: "var", name: "false" }]);
      assert.deepEqual(el.words[4].parts, [{ kind: "lit", text: 'a"b' }]);
    });
    it("keeps $(…), (…), {…} and @(…) as nested code, with their offsets", () => {
      const src = "Write-Host $(Remove-Item x) (Get-Item y) { rm z }";
      const words = readScript(src).pipelines[0].elements[0].words;
      const codes = words.flatMap((w) => w.parts).filter((p) => p.kind === "code");
      assert.deepEqual(
        codes.map((c) => (c.kind === "code" ? [c.how, c.code, src.slice(c.offset, c.offset + c.code.length)] : [])),
        [
          ["sub", "Remove-Item x", "Remove-Item x"],
          ["paren", "Get-Item y", "Get-Item y"],
          ["block", " rm z ", " rm z "],
        ],
      );
    });
    it("an unclosed string or bracket is an error, and an error is an ask", () => {
      assert.ok(readScript("Get-Content 'x").errors.length > 0);
      assert.ok(readScript("Write-Host $(ls").errors.length > 0);
      assert.equal(act("Get-Content 'notes.txt"), "ask");
    });
    it("comments and line continuations are not commands", () => {
      assert.equal(act("# Remove-Item -Recurse -Force ~\nGet-Date"), "allow");
      assert.equal(act("<# rm -r -fo ~ #> Get-Date"), "allow");
      assert.deepEqual(effects("Remove-Item `\n  -Recurse `\n  build"), ["delete-r /home/dev/app/build"]);
    });
    it("typographic quotes are quotes, as PowerShell reads them", () => {
      assert.deepEqual(effects("Get-Content \u2018.env\u2019"), ["read /home/dev/app/.env"]);
    });
  });

  describe("cmdlets by their effect (table), under every alias and parameter spelling", () => {
    for (const cmd of [
      "Remove-Item -Recurse -Force ~",
      "remove-item ~ -recurse -force",
      "rm -r -fo ~",
      "del -Recurse $HOME",
      "ri -Recurse -Force $env:USERPROFILE",
      "rd ${env:USERPROFILE} -Recurse",
      "Remove-Item -LiteralPath C:\\Users\\dev -Recurse -Force",
      "Microsoft.PowerShell.Management\\Remove-Item -Path ~ -Recurse",
    ]) {
      it(`${cmd} → block (recursive delete of home)`, () => assert.equal(act(cmd), "block"));
    }
    it("Remove-Item -Recurse -Force is seen as the rm -r -f it amounts to", () => {
      const v = ps("Remove-Item -Recurse -Force src");
      assert.equal(v.action, "block");
      assert.match(v.reason, /recursive or forced rm/);
    });
    it("reading a secret: Get-Content / cat / gc / type / Select-String / Import-Csv", () => {
      for (const cmd of ["Get-Content .env", "cat ~/.ssh/id_rsa", "gc -Path ~\\.aws\\credentials", "type C:\\Users\\dev\\.ssh\\id_ed25519", "Select-String -Pattern key -Path server.pem", "Import-Csv .env"]) {
        assert.equal(act(cmd), "block", cmd);
      }
    });
    it("writing a protected path: Set-Content, Add-Content, Out-File, Tee-Object, New-Item, Clear-Content, redirection", () => {
      for (const cmd of ["Set-Content -Path package-lock.json -Value x", "Add-Content .pi/damage-control-rules.yaml 'x'", "'{}' | Out-File -FilePath .claude/settings.json", "Get-Date | Tee-Object yarn.lock", "New-Item -ItemType File -Path .env -Force", "Clear-Content package-lock.json", "Write-Output x > .env", "Get-Date >> Cargo.lock"]) {
        assert.equal(act(cmd), "block", cmd);
      }
    });
    it("copy and move: sources read (moved ones deleted), destinations written", () => {
      assert.deepEqual(effects("Copy-Item -Recurse src C:\\Users\\dev\\backup"), ["read-r /home/dev/app/src", "write-r /home/dev/backup"]);
      assert.deepEqual(effects("Move-Item .git old.git"), ["delete-r /home/dev/app/.git", "write /home/dev/app/old.git"]);
      assert.equal(act("Move-Item .git old.git"), "block");
      assert.equal(act("Copy-Item .env .env.bak"), "block");
      assert.equal(act("Rename-Item -Path .git -NewName git-old"), "block");
    });
    it("an ambiguous prefix (-f: -Filter or -Force) sets the switch and never swallows the path", () => {
      assert.deepEqual(effects("Remove-Item -f ~/.ssh"), ["delete /home/dev/.ssh"]);
      assert.equal(act("Remove-Item -f ~/.ssh"), "block");
    });
    it("-WhatIf is a dry run: no effect", () => {
      assert.equal(act("Remove-Item -Recurse -Force src -WhatIf"), "allow");
    });
    it("the pipeline carries targets: Get-ChildItem X -Recurse | Remove-Item deletes X's tree", () => {
      assert.deepEqual(effects("Get-ChildItem ~/.ssh | Remove-Item"), ["list /home/dev/.ssh", "delete /home/dev/.ssh"]);
      assert.equal(act("Get-ChildItem -Path .git -Recurse | Remove-Item -Force"), "block");
      assert.equal(act("Get-Process | Stop-Process -WhatIf"), "allow");
      assert.equal(act("Get-Content list.txt | Remove-Item"), "ask");
    });
    it("a path only known at run time is an ask (a recursive Remove-Item is the rm -r rule's block anyway)", () => {
      assert.equal(act("Remove-Item $target"), "ask");
      assert.equal(act("Remove-Item $target -Recurse"), "block");
      assert.equal(act("Get-ChildItem *.log | ForEach-Object { Remove-Item $_ }"), "ask");
    });
    it("variables assigned literally in the same command are followed", () => {
      assert.equal(act("$k = \"$HOME\\.ssh\\id_rsa\"; Get-Content $k"), "block");
      assert.equal(act("$d='src'; Remove-Item $d -Recurse -Force"), "block");
      assert.equal(act("$d='notes.md'; Get-Content $d"), "allow");
    });
    it("Set-Location moves the folder later paths are relative to", () => {
      assert.deepEqual(effects("Set-Location ~; Remove-Item .ssh -Recurse"), ["delete-r /home/dev/.ssh"]);
    });
    it("an unknown cmdlet with a destructive verb is an ask; other unknown cmdlets pass", () => {
      assert.equal(act("Clear-Disk -Number 1 -RemoveData"), "ask");
      assert.equal(act("Format-Volume -DriveLetter D"), "ask");
      assert.equal(act("Get-NetAdapter | Format-Table"), "allow");
    });
  });

  describe("code inside code is read again", () => {
    it("Invoke-Expression / iex of a literal", () => {
      assert.equal(act("Invoke-Expression 'Remove-Item -Recurse -Force ~'"), "block");
      assert.equal(act("iex \"Get-Content .env\""), "block");
      assert.equal(act("iex $code"), "ask");
    });
    it("powershell -Command, pwsh -c, and -EncodedCommand (decoded and named)", () => {
      assert.equal(act("powershell -NoProfile -Command \"Remove-Item -Recurse -Force ~\""), "block");
      assert.equal(act("pwsh -c 'Get-Content .env'"), "block");
      const encoded = Buffer.from("Remove-Item -Recurse -Force ~", "utf16le").toString("base64");
      const v = ps(`powershell -EncodedCommand ${encoded}`);
      assert.equal(v.action, "block");
    });
    it("subexpressions and script blocks run", () => {
      assert.equal(act("Write-Host \"$(Get-Content .env)\""), "block");
      assert.equal(act("if (Test-Path src) { Remove-Item src -Recurse -Force }"), "block");
      // Regenerable build output inside the workspace passes, as it does in bash (issue 19).
      assert.equal(act("if (Test-Path build) { Remove-Item build -Recurse -Force }"), "allow");
      assert.equal(act("function Clean { Remove-Item ~/.aws -Recurse }; Clean"), "block");
    });
    it("cmd /c built-ins: del /s, rd /s, type, robocopy /MIR", () => {
      assert.equal(act("cmd /c \"rd /s /q C:\\Users\\dev\""), "block");
      assert.equal(act("cmd.exe /c type .env"), "block");
      assert.equal(act("cmd /c robocopy empty C:\\Users\\dev\\app /MIR"), "block");
      assert.equal(act("cmd /c echo hello"), "allow");
    });
    it("Start-Process runs its program; -Verb RunAs is elevation (sudo)", () => {
      assert.match(ps("Start-Process powershell -Verb RunAs -ArgumentList '-c Get-Date'").reason, /sudo/);
      assert.equal(act("Start-Process git -ArgumentList 'push --force origin main'"), "block");
      assert.equal(act("Start-Process notepad README.md"), "allow");
    });
  });

  describe(".NET's file API called directly", () => {
    it("[System.IO.File]::ReadAllText / Delete / WriteAllText, [IO.Directory]::Delete(p, $true)", () => {
      assert.equal(act("[System.IO.File]::ReadAllText('.env')"), "block");
      assert.equal(act("$t = [IO.File]::ReadAllText(\"$HOME\\.ssh\\id_rsa\")"), "block");
      assert.equal(act("[IO.File]::WriteAllText('package-lock.json', '{}')"), "block");
      assert.deepEqual(effects("[IO.Directory]::Delete('C:\\Users\\dev\\app', $true)"), ["delete-r /home/dev/app"]);
      assert.equal(act("[IO.File]::ReadAllText('README.md').Length"), "allow");
    });
  });

  describe("native programs are judged as the bash analysis judges them", () => {
    it("git inside PowerShell is git", () => {
      assert.equal(act("git reset --hard HEAD~1"), "block");
      assert.equal(act("& 'C:\\Program Files\\Git\\bin\\git.exe' push -f origin main"), "block");
      assert.equal(act("git status; git log --oneline -5"), "allow");
      assert.equal(act("git commit -m 'Remove-Item -Recurse -Force ~'"), "allow");
    });
    it("the other spellings of a native command come along (a flag after the operands, as a pattern sees it first)", () => {
      // The rule is written for `git push -f …`: only a variant puts the flag there.
      assert.equal(act("git push origin main -f"), "block");
      assert.equal(act("cmd /c git push origin main -f"), "block");
      assert.equal(act("git push origin main"), "allow");
    });
    it("a call whose program is only known at run time is an ask", () => {
      assert.equal(act("& $tool --version"), "ask");
    });
  });

  describe("everyday PowerShell passes", () => {
    for (const cmd of [
      "Get-ChildItem -Recurse -Filter *.ts | Select-Object -First 20",
      "Get-Content README.md | Select-String -Pattern TODO",
      "npm run build; if ($LASTEXITCODE -ne 0) { exit 1 }",
      "Test-Path .env",
      "Get-Item .env | Select-Object Length, LastWriteTime",
      "Remove-Item temp.txt",
      "Set-Content -Path notes.txt -Value 'hello'",
      "New-Item -ItemType Directory -Path src\\components -Force",
      "Copy-Item config.example.json config.json",
      "$env:NODE_ENV = 'test'; npx vitest run",
      "Write-Output \"rm -rf /\" | Out-Null",
      "dotnet build -c Release",
      "python -m pytest -q",
      "Get-Process node | Stop-Process",
      "Invoke-WebRequest https://example.com/x.json -OutFile data/x.json",
      "Expand-Archive -Path dist.zip -DestinationPath out",
    ]) {
      it(`${cmd} → allow`, () => assert.equal(act(cmd), "allow", ps(cmd).reason));
    }
  });

  describe("Windows paths", () => {
    it("C:\\Users\\<name> and $env:USERPROFILE are the home folder; backslashes separate", () => {
      assert.deepEqual(effects("Get-Content C:\\Users\\dev\\.aws\\config"), ["read /home/dev/.aws/config"]);
      assert.deepEqual(effects("Get-Content $env:USERPROFILE\\notes.txt"), ["read /home/dev/notes.txt"]);
    });
    it("case-insensitive file systems: .ENV is .env and .SSH is .ssh", () => {
      assert.equal(act("Get-Content .ENV"), "block");
      assert.equal(act("Get-Content ~\\.SSH\\ID_RSA"), "block");
    });
    it("other drives stay apart from home and the project", () => {
      assert.deepEqual(effects("Get-Content D:\\data\\report.csv"), ["read /d:/data/report.csv"]);
    });
  });

  describe("agents' PowerShell tools", () => {
    it("Claude Code's PowerShell and pi's powershell are analysed; a call without a command is refused", () => {
      assert.equal(decide({ tool: "PowerShell", input: { command: "Remove-Item -Recurse -Force ~" } }, defaultRules(), ctx, "claude").action, "block");
      assert.equal(decide({ tool: "powershell", input: { command: "Get-Content .env" } }, defaultRules(), ctx, "pi").action, "block");
      assert.equal(decide({ tool: "PowerShell", input: {} }, defaultRules(), ctx, "claude").action, "block");
    });
  });
});
