// Package runners and make, unwrapped by the shell analysis (src/engine/shell/programs/wrappers.ts)
// so that the default families see the program they run: `npx prisma …` is also `prisma …`.
import * as assert from "node:assert/strict";
import { analyzeCommand } from "../../src/engine/shell/analyze";

const texts = (command: string) => analyzeCommand(command, { cwd: "/home/dev/p", home: "/home/dev" }).commands.map((c) => c.text);

describe("shell analysis: package runners and make recipes", () => {
  it("runs the package's program, named without its version or scope", () => {
    const cases: [string, string][] = [
      ["npx prisma migrate reset --force", "prisma migrate reset --force"],
      ["npx -y prisma@5.22.0 migrate reset", "prisma migrate reset"],
      ["npx --package=@x/y -- tool run", "tool run"],
      ["npm exec -- prisma db push", "prisma db push"],
      ["npm x supabase db reset", "supabase db reset"],
      ["pnpm dlx @railway/cli up", "railway up"],
      ["pnpm exec prisma generate", "prisma generate"],
      ["pnpm --filter api exec prisma migrate reset", "prisma migrate reset"],
      ["pnpm -C apps/api prisma migrate reset", "prisma migrate reset"],
      ["yarn prisma migrate reset", "prisma migrate reset"],
      ["yarn workspace api prisma migrate reset", "prisma migrate reset"],
      ["yarn --cwd web dlx supabase db reset", "supabase db reset"],
      ["bunx prisma migrate reset", "prisma migrate reset"],
      ["npx -c 'terraform destroy'", "terraform destroy"],
    ];
    for (const [command, inner] of cases) {
      const t = texts(command);
      assert.ok(t.includes(inner), `${command}: ${JSON.stringify(t)}`);
      assert.equal(t[0].split(" ")[0], command.split(" ")[0], `${command}: the runner itself is shown first`);
    }
  });

  it("leaves the managers' own subcommands alone (shown whole, nothing run)", () => {
    for (const command of ["pnpm rm lodash", "pnpm install", "yarn add prisma", "npm run build", "npm ci", "yarn", "uv sync", "poetry install"]) {
      assert.deepEqual(texts(command), [command], command);
    }
  });

  it("make: recipes of the named targets and their prerequisites, when the makefile is in the command", () => {
    const mk = "reset: clean\n\t@npx prisma migrate reset --force\nclean:\n\t-rm -rf dist\nother:\n\tterraform destroy\n";
    const t = texts(`make -f - reset <<'EOF'\n${mk}EOF`);
    assert.ok(t.includes("prisma migrate reset --force"), JSON.stringify(t));
    assert.ok(t.includes("rm -rf dist"), JSON.stringify(t));
    assert.ok(!t.includes("terraform destroy"), `a target not asked for is not run: ${JSON.stringify(t)}`);
    const first = texts(`make -f - <<'EOF'\n${mk}EOF`);
    assert.ok(first.includes("prisma migrate reset --force"), `no target: the first one: ${JSON.stringify(first)}`);
    assert.deepEqual(texts(`make -n -f - reset <<'EOF'\n${mk}EOF`), ["make -n -f - reset"], "a dry run runs nothing");
    assert.deepEqual(texts("make reset"), ["make reset"], "a Makefile on disk is not read: the command is shown whole");
  });
});
