// Issue 36, the calls its first round still missed: mechanisms, each with everyday controls.
// Listings that only stat what they walk past, find's -ok, openssl's -text beside -pubout, git
// plumbing that drops the reflog's safety net or moves HEAD, MongoDB shell scripts, dynamic SQL in
// a DO block, sed's `e`, Neovim's Lua, scripts and git hooks written in the same line, and cd's
// OLDPWD/CDPATH.
import * as assert from "node:assert/strict";
import { assertAllowed, assertDecidedBy, assertDecidedByAlone, judge } from "./defaults-helpers";

function assertNotAllowed(commands: string[]): void {
  for (const c of commands) assert.notEqual(judge(c).action, "allow", c);
}

describe("defaults: what issue 36's first round missed", () => {
  it("a recursive listing that walks past a zero-access entry only stats it (du, ls -R, tree, find)", () => {
    assertAllowed([
      "du -sh ~/.cache",
      "du -sh ~ 2>/dev/null | tail -1",
      "du -h --max-depth=1 ~/.config",
      "ls -R ~ | head",
      "tree -L 2 ~",
      "find ~/.cache -type f -size +100M",
      "find ~ -maxdepth 3 -name '*.pem'",
      "stat ~/.cache/huggingface/token",
    ]);
    // The zero-access folder itself, or its content read through the walk, stays refused.
    assertDecidedBy({ path: "~/.ssh/" }, "block", ["ls ~/.ssh", "du -sh ~/.ssh", "tree ~/.ssh", "find ~ -name '*.pem' -exec cat {} \\;", "find ~ -name '*.pem' | xargs cat"]);
    // A search by a secret file's own name is a search for the secret (credentials.ts).
    assertDecidedBy({ path: "~/.ssh/" }, "block", ["find ~ -name id_rsa", "find / -name id_ed25519 2>/dev/null", "find ~ -type f -name id_ecdsa"]);
    assertAllowed(["find ~ -name id_ed25519.pub", "find ~/projects -name id_rsa", "find . -name credentials.example"]);
    assertDecidedBy({ path: "~/.cache/huggingface/token" }, "block", ["grep -r token ~/.cache", "cat ~/.cache/huggingface/token", "tar czf /tmp/c.tgz ~/.cache"]);
  });

  it("find -ok puts each run to the user; fed answers, or a refused command, are not laundered", () => {
    assertAllowed(["find . -name '*.orig' -ok rm {} \\;", "find . -name '*.rej' -okdir rm {} \\;", "find src -name '*.bak' -ok rm -i {} \\;"]);
    assertNotAllowed(["find ~ -maxdepth 0 -ok rm -rf {} \\;", "yes | find . -name '*.orig' -ok rm {} \\;", "find . -name '*.orig' -exec rm {} \\;"]);
  });

  it("openssl rsa/ec print the private components with -text even beside -pubout; pkey does not", () => {
    assertDecidedBy({ path: "*.key" }, "block", ["openssl rsa -in server.key -pubout -text", "openssl ec -in server.key -pubout -text -noout"]);
    assertAllowed(["openssl rsa -in server.key -pubout", "openssl ec -in server.key -pubout -out pub.pem.txt", "openssl pkey -in server.key -pubout -text", "openssl pkey -in server.key -text_pub -noout"]);
  });

  it("git plumbing that deletes the unreachable commits now, or moves HEAD without the worktree, is asked", () => {
    assertDecidedByAlone("git-prune-now", "ask", ["git gc --prune=now", "git gc --aggressive --prune=now", "git -C ../other gc --prune=all", "git prune", "git prune --expire now", "git reflog expire --expire-unreachable=now refs/heads/main"]);
    assertDecidedByAlone("git-symbolic-ref-head", "ask", ["git symbolic-ref HEAD refs/heads/empty", "git symbolic-ref -d HEAD", "git symbolic-ref -m 'switch' HEAD refs/heads/orphan"]);
    assertAllowed([
      "git gc",
      "git gc --auto",
      "git gc --prune",
      "git prune -n",
      "git prune --expire=2.weeks.ago",
      "git reflog",
      "git reflog expire --expire=90.days.ago --all",
      "git symbolic-ref HEAD",
      "git symbolic-ref --short HEAD",
      "git symbolic-ref -q HEAD",
      "git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main",
    ]);
  });

  it("MongoDB shell scripts that drop or delete with an always-true filter empty the store", () => {
    assertDecidedByAlone("remote-destroy-all-data", "block", [
      "mongosh app --eval 'db.getCollectionNames().forEach(c => db[c].drop())'",
      "mongosh \"$MONGO_URL\" --quiet --eval 'db.users.deleteMany({ _id: { $exists: true } })'",
      "mongosh app --eval 'db.runCommand({ dropDatabase: 1 })'",
      "mongosh app --eval 'db.runCommand({ drop: \"users\" })'",
      "mongo app --eval 'db.sessions.deleteMany({_id: {$ne: null}})'",
      "mongosh app --eval 'db.runCommand({delete: \"users\", deletes: [{q: {}, limit: 0}]})'",
      "mongosh app --eval=\"db.getSiblingDB('crm').runCommand({dropDatabase: 1})\"",
    ]);
    assertAllowed([
      "mongosh app --eval 'db.users.deleteMany({ status: \"stale\" })'",
      "mongosh app --eval 'db.users.deleteMany({ _id: { $exists: true }, status: \"stale\" })'",
      "mongosh app --eval 'db.users.find({ _id: { $exists: true } }).count()'",
      "mongosh app --eval 'db.runCommand({ ping: 1 })'",
      "mongosh app --eval 'db.runCommand({delete: \"users\", deletes: [{q: {a: 1}, limit: 1}]})'",
      "mongosh app_test --eval 'db.runCommand({ dropDatabase: 1 })'",
      "mongosh app --eval 'db.getCollectionNames().forEach(c => print(c, db[c].countDocuments()))'",
    ]);
  });

  it("a DO block's EXECUTE runs the statement its literals build, a value standing as one identifier", () => {
    assertDecidedBy({ id: "sql-delete-without-where" }, "block", [
      "psql app -c \"DO \\$\\$ DECLARE r record; BEGIN FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP EXECUTE format('DELETE FROM %I', r.tablename); END LOOP; END \\$\\$;\"",
    ]);
    assertDecidedBy({ id: "sql-drop-table" }, "block", [
      "psql app -c \"DO \\$\\$ DECLARE r record; BEGIN FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP EXECUTE 'DROP TABLE IF EXISTS ' || quote_ident(r.tablename) || ' CASCADE'; END LOOP; END \\$\\$;\"",
    ]);
    assertAllowed([
      "psql app -c \"DO \\$\\$ DECLARE n int; BEGIN EXECUTE format('SELECT count(*) FROM %I', 'users') INTO n; RAISE NOTICE '%', n; END \\$\\$;\"",
      "psql app -c \"DO \\$\\$ BEGIN EXECUTE format('DELETE FROM %I WHERE created_at < now() - interval ''30 days''', 'sessions'); END \\$\\$;\"",
      "psql app -c \"DO \\$\\$ BEGIN RAISE NOTICE 'schema is public'; END \\$\\$;\"",
    ]);
  });

  it("sed's e command and s///e flag run a command, judged as the command it is", () => {
    assertDecidedBy({ id: "rm-recursive-force" }, "block", ["sed -n '1e rm -rf src' README.md", "sed 's/.*/rm -rf src/e' README.md", "sed '$e rm -rf lib' notes.txt"]);
    assertDecidedBy({ path: "~/.ssh/" }, "block", ["sed '/x/e cat ~/.ssh/id_ed25519' f.txt"]);
    for (const c of ["sed '1d;e' list.txt", "sed 's/^/echo /e' list.txt"]) assert.equal(judge(c).action, "ask", c);
    assertAllowed(["sed -e 's/foo/bar/g' -e 's/e/E/' f.txt", "sed -n '/^export/p' src/a.ts", "sed -i 's/version/release/' package.json", "sed '/^$/d' notes.txt", "sed 's/exec/run/g' exec.txt"]);
  });

  it("Neovim's -c 'lua …' runs Lua: os.execute and io.popen run shell code", () => {
    assertDecidedBy({ id: "rm-recursive-force" }, "block", ["nvim --headless -c 'lua os.execute(\"rm -rf ~/.config\")' -c 'qa'"]);
    assertDecidedBy({ path: "~/.ssh/" }, "block", ["nvim --headless +'lua io.popen(\"cat ~/.ssh/id_ed25519\")' +qa"]);
    assertAllowed(["nvim --headless -c 'lua require(\"lazy\").sync()' -c qa", "nvim --headless '+Lazy! sync' +qa", "nvim --headless -c 'lua print(vim.version())' -c qa", "vim -c 'set ft=yaml' -c wq config.yml"]);
  });

  it("a script or a git hook written earlier in the line runs as written", () => {
    assertDecidedBy({ id: "rm-recursive-force" }, "block", [
      "echo 'rm -rf ~/plume-factory' > /tmp/x.sh && bash /tmp/x.sh",
      "cat > /tmp/run.sh <<'EOF'\n#!/bin/sh\nrm -rf src\nEOF\nsh /tmp/run.sh",
      "mkdir -p /tmp/h && printf '#!/bin/sh\\nrm -rf ~/plume-factory\\n' > /tmp/h/pre-commit && chmod +x /tmp/h/pre-commit && git -c core.hooksPath=/tmp/h commit -m wip",
      "mkdir -p /tmp/h && echo 'rm -rf ~/plume-factory' > /tmp/h/pre-push && git -c core.hooksPath=/tmp/h push origin main",
    ]);
    assertDecidedBy({ path: "~/.aws/" }, "block", ["printf 'cat ~/.aws/credentials\\n' > s.sh && source s.sh"]);
    assertAllowed([
      "echo 'npm test' > /tmp/x.sh && bash /tmp/x.sh",
      "mkdir -p /tmp/h && printf '#!/bin/sh\\nnpm test\\n' > /tmp/h/pre-commit && chmod +x /tmp/h/pre-commit && git -c core.hooksPath=/tmp/h commit -m wip",
      "git -c core.hooksPath=.githooks commit -m wip",
      "echo 'rm -rf ~/plume-factory' > /tmp/h/pre-commit && git -c core.hooksPath=/tmp/h status",
    ]);
  });

  it("cd keeps OLDPWD (cd - swaps back) and looks a relative name up in CDPATH first", () => {
    assertAllowed([
      "cd \"$(mktemp -d)\" && npm init -y >/dev/null && npm i left-pad && cd - && rm -rf \"$OLDPWD\"",
      "CDPATH=/home/dev cd plume-factory && cat README.md",
      "CDPATH=/home/dev cd ./src && ls",
      "cd src && cd - && ls",
    ]);
    // Without `cd -`, OLDPWD is the folder left: the project.
    assertNotAllowed(["cd \"$(mktemp -d)\" && npm i left-pad && rm -rf \"$OLDPWD\"", "cd src && cd - && rm -rf \"$OLDPWD\""]);
    assertDecidedBy({ path: "~/.ssh/" }, "block", ["CDPATH=/home/dev cd .ssh && cat id_ed25519"]);
    assertDecidedBy({ path: "~/.aws/" }, "block", ["export CDPATH=~; cd .aws && cat credentials"]);
  });
});
