// Issue 23: commands that reach outside the working tree (devices, system paths, code hosts,
// clouds, data services, hosted services, other machines, backups, secrets managers) and a
// program reached by another of its names. Written before the engine: each family is half
// everyday work that must pass under the embedded defaults.
import * as assert from "node:assert/strict";
import { analyzeCommand } from "../../src/engine/shell/analyze";
import { parseRules } from "../../src/engine/rules/parse";
import { defaultRules } from "../../src/engine/rules/defaults";
import { decide, decideCommand } from "../../src/engine/decide";
import type { Action } from "../../src/engine/types";
import { assertFamily, CWD, HOME, judge } from "./defaults-helpers";

type Case = [string, Action];
const family = (name: string, cases: Case[]) =>
  describe(name, () => {
    for (const [command, want] of cases)
      it(`${want}: ${command}`, () => {
        const v = judge(command);
        assert.equal(v.action, want, `${command}: ${v.action} ${v.reason}`);
        if (want !== "allow") assert.ok(v.reason.length > 0);
      });
  });

describe("remote effects (issue 23)", () => {
  family("1. devices and the system", [
    ["dd if=/dev/zero of=/dev/sda bs=1M", "block"],
    ["sudo dd if=ubuntu.iso of=/dev/sdb bs=4M status=progress", "block"],
    ["mkfs.ext4 /dev/sdb1", "block"],
    ["mkfs -t xfs /dev/nvme0n1p2", "block"],
    ["wipefs -a /dev/sdb", "block"],
    ["shred -n 3 /dev/sda", "block"],
    ["echo garbage > /dev/sda", "block"],
    ["sgdisk --zap-all /dev/sdc", "block"],
    ["parted /dev/sdb mklabel gpt", "block"],
    ["blkdiscard /dev/nvme1n1", "block"],
    ["mkswap /dev/sdb2", "block"],
    ["cryptsetup luksFormat /dev/sdd", "block"],
    ["zpool destroy tank", "block"],
    ["lvremove -f /dev/vg0/data", "block"],
    ["rm /etc/passwd", "block"],
    ["rm -rf /usr/lib/python3", "block"],
    ["echo 'nameserver 1.1.1.1' > /etc/resolv.conf", "block"],
    ["rm -rf /var/lib/postgresql", "block"],
    ["mv /boot/vmlinuz /tmp/", "block"],
    // everyday
    ["cat /etc/hosts", "allow"],
    ["ls /usr/bin", "allow"],
    ["dd if=disk.img of=copy.img bs=1M", "allow"],
    ["dd if=/dev/urandom of=random.bin bs=1k count=4", "allow"],
    ["mkfs.ext4 disk.img", "allow"],
    ["truncate -s 1G disk.img && mkfs.ext4 -F disk.img", "allow"],
    ["lsblk", "allow"],
    ["fdisk -l", "allow"],
    ["parted /dev/sda print", "allow"],
    ["echo hi > /dev/null", "allow"],
    ["cp build/tool /usr/local/bin/tool", "allow"],
    ["grep -r ssl /etc/nginx", "allow"],
    ["zpool status", "allow"],
    ["lvs", "allow"],
    ["blkid /dev/sda1", "allow"],
  ]);

  family("2. code hosts and CI", [
    ["gh repo delete acme/site --yes", "block"],
    ["glab repo delete acme/site", "block"],
    ["tea repo delete acme/site", "block"],
    ["gh release delete v1.2.0 --yes", "ask"],
    ["gh secret delete DEPLOY_KEY", "ask"],
    ["gh variable delete API_URL", "ask"],
    // The repository itself through the API is the repository deleted: block, as `gh repo delete`.
    ["gh api -X DELETE repos/acme/site", "block"],
    ["gh api --method DELETE /repos/acme/site/git/refs/heads/old", "ask"],
    ["gh run delete 12345", "ask"],
    ["git push --delete origin feature/x", "ask"],
    ["git push origin :feature/x", "ask"],
    ["git push origin --delete tag v1", "ask"],
    ["git push origin :refs/tags/v1.0", "ask"],
    // everyday
    ["gh pr list", "allow"],
    ["gh repo view acme/site", "allow"],
    ["gh pr create --title 'fix: delete button' --body 'remove the delete flow'", "allow"],
    ["gh release create v1.3.0 --notes 'x'", "allow"],
    ["gh api repos/acme/site/pulls", "allow"],
    ["gh run list", "allow"],
    ["gh issue close 12", "allow"],
    ["git push origin feature/x", "allow"],
    ["git push --tags", "allow"],
    ["glab mr list", "allow"],
    ["gh secret list", "allow"],
  ]);

  family("3. clouds and platforms", [
    ["aws ec2 terminate-instances --instance-ids i-123", "ask"],
    ["aws rds delete-db-instance --db-instance-identifier prod", "ask"],
    ["gcloud compute instances delete web-1 --zone us-east1-b", "ask"],
    ["az group delete --name prod-rg --yes", "ask"],
    ["doctl compute droplet delete web-1", "ask"],
    ["hcloud server delete web-1", "ask"],
    ["linode-cli linodes delete 1234", "ask"],
    ["fly apps destroy my-app", "ask"],
    ["heroku apps:destroy --app my-app --confirm my-app", "ask"],
    ["vercel remove my-project --yes", "ask"],
    ["netlify sites:delete abc123", "ask"],
    ["railway down", "ask"],
    ["wrangler delete my-worker", "ask"],
    ["wrangler r2 bucket delete assets", "ask"],
    ["firebase projects:delete my-proj", "ask"],
    ["firebase firestore:delete --all-collections", "block"],
    ["supabase projects delete abcd", "ask"],
    ["neonctl projects delete wild-sun-123", "ask"],
    ["pscale database delete prod-db", "ask"],
    ["oci compute instance terminate --instance-id ocid1", "ask"],
    ["aws s3 rm s3://backups --recursive", "ask"],
    ["aws s3 rb s3://assets --force", "ask"],
    ["gsutil rm -r gs://assets", "ask"],
    ["az storage blob delete-batch --source assets", "ask"],
    ["rclone purge remote:bucket/path", "ask"],
    ["rclone sync ./empty remote:bucket", "ask"],
    // The defaults' rm pattern also reads mc's words as an rm (the flags move in its variants): a block.
    ["mc rm --recursive --force local/bucket", "block"],
    ["mc rb local/bucket", "ask"],
    // everyday
    ["aws s3 ls s3://assets", "allow"],
    ["aws ec2 describe-instances", "allow"],
    ["aws s3 cp build/ s3://assets/ --recursive", "allow"],
    ["gcloud compute instances list", "allow"],
    ["az group list", "allow"],
    ["doctl compute droplet list", "allow"],
    ["fly deploy", "allow"],
    ["vercel deploy --prod", "allow"],
    ["wrangler deploy", "allow"],
    ["rclone copy ./dist remote:bucket", "allow"],
    ["rclone ls remote:bucket", "allow"],
    ["heroku logs --tail", "allow"],
    ["kubectl get pods -A", "allow"],
    ["docker compose down", "allow"],
    ["docker rm -f web", "allow"],
  ]);

  family("4. data services", [
    ["curl -X DELETE http://es.internal:9200/logs-*", "block"],
    ["curl -XDELETE 'localhost:9200/_all'", "block"],
    ["curl -X POST http://localhost:9200/logs/_delete_by_query -d '{\"query\":{\"match_all\":{}}}'", "block"],
    ["curl -X DELETE http://localhost:9200/logs-2024", "ask"],
    ["curl --request DELETE http://127.0.0.1:8500/v1/kv/app?recurse", "block"],
    ["curl -X DELETE -u guest:guest http://localhost:15672/api/queues/%2F/orders", "ask"],
    ["http DELETE localhost:9200/products", "ask"],
    ["kafka-topics --bootstrap-server localhost:9092 --delete --topic orders", "ask"],
    ["kafka-topics.sh --bootstrap-server localhost:9092 --delete --topic orders", "ask"],
    ["rabbitmqadmin delete queue name=orders", "ask"],
    ["nats stream rm ORDERS -f", "ask"],
    ["redis-cli FLUSHALL", "block"],
    ["redis-cli -h cache.internal flushdb", "block"],
    ["etcdctl del --prefix /", "block"],
    // everyday
    ["curl -X DELETE http://localhost:3000/todos/1", "allow"],
    // Behaviour change on purpose (issue 36, family 5): an HTTP DELETE to a host that is not this
    // machine is put to the user, whatever the API; a loopback or development host stays everyday.
    ["curl -X DELETE https://api.example.com/v1/sessions/me -H 'Authorization: Bearer x'", "ask"],
    ["curl -X DELETE http://api:8080/v1/sessions/me", "allow"],
    ["curl http://localhost:9200/_cat/indices", "allow"],
    ["curl -X PUT http://localhost:9200/logs-2025", "allow"],
    ["curl -X POST http://localhost:9200/logs/_search -d '{}'", "allow"],
    ["kafka-topics --bootstrap-server localhost:9092 --list", "allow"],
    ["kafka-topics --create --topic orders --bootstrap-server localhost:9092", "allow"],
    ["redis-cli GET session:1", "allow"],
    ["redis-cli DEL session:1", "allow"],
    ["nats stream ls", "allow"],
    ["rabbitmqadmin list queues", "allow"],
    ["wget http://localhost:8080/health -O -", "allow"],
    // A malformed escape is read as written, not a crash.
    ["curl -X DELETE 'http://localhost:3000/todos/%E0%A4%A'", "allow"],
  ]);

  family("5. hosted services, unknown CLIs and other machines", [
    ["stripe products delete prod_123", "ask"],
    ["pagerduty service delete P123", "ask"],
    ["cloudflare dns delete example.com www", "ask"],
    ["launchdarkly flags archive new-checkout", "ask"],
    ["foo-cli widgets delete prod-widget", "ask"],
    ["acme-admin users purge --all", "ask"],
    ["ssh prod rm -rf /var/www/app", "block"],
    ["ssh -i key.pub deploy@web1 'sudo rm -rf /srv/data'", "block"],
    ["ssh db1 redis-cli FLUSHALL", "block"],
    ["rsync -a --delete dist/ deploy@web1:/srv/app/", "ask"],
    // Changed on purpose (issue 27 item 8 beside issue 23): scp onto a host writes the named path
    // there, judged by the path rules as ssh HOST CMD's paths are — a deploy upload passes, a
    // system file there is refused.
    ["scp build.tar.gz deploy@web1:/srv/app/", "allow"],
    ["scp passwd deploy@web1:/etc/passwd", "block"],
    // everyday
    ["make clean", "allow"],
    ["npm run delete-cache", "allow"],
    ["git branch -d feature/x", "allow"],
    ["npm uninstall lodash", "allow"],
    ["pip uninstall -y requests", "allow"],
    ["cargo remove serde", "allow"],
    ["poetry remove requests", "allow"],
    ["brew uninstall wget", "allow"],
    ["stripe products list", "allow"],
    ["stripe products create --name T-shirt", "allow"],
    ["foo-cli widgets list", "allow"],
    ["ssh host uptime", "allow"],
    ["ssh -p 2222 deploy@web1 'systemctl status nginx'", "allow"],
    ["rsync -a src/ deploy@web1:/srv/app/", "allow"],
    ["scp deploy@web1:/var/log/app.log .", "allow"],
    ["kubectl delete pod web-7d9c", "allow"],
    ["docker image rm web:old", "allow"],
    ["git worktree remove ../wt", "allow"],
    ["git remote remove upstream", "allow"],
  ]);

  family("6. backups and snapshots", [
    ["restic forget --prune --keep-last 1", "block"],
    ["restic -r s3:s3.amazonaws.com/bk prune", "block"],
    ["borg delete /backups::archive-1", "block"],
    ["borg prune --keep-daily 1 /backups", "block"],
    ["velero backup delete nightly --confirm", "block"],
    ["aws ec2 delete-snapshot --snapshot-id snap-1", "block"],
    ["gcloud compute snapshots delete snap-1", "block"],
    ["zfs destroy -r tank/data@2024", "block"],
    ["btrfs subvolume delete /mnt/snapshots/2024", "block"],
    ["tmutil delete /Volumes/TM/Backups.backupdb/mac/2024", "block"],
    // everyday
    ["restic snapshots", "allow"],
    ["restic backup ~/work", "allow"],
    ["restic forget --keep-last 7 --dry-run", "allow"],
    ["borg list /backups", "allow"],
    ["borg create /backups::today ~/work", "allow"],
    ["velero backup get", "allow"],
    ["aws ec2 describe-snapshots --owner-ids self", "allow"],
    ["zfs list -t snapshot", "allow"],
    ["zfs snapshot tank/data@today", "allow"],
    ["tmutil listbackups", "allow"],
  ]);

  family("7. secrets managers", [
    ["vault kv get secret/prod/db", "block"],
    ["vault read database/creds/readonly", "block"],
    ["aws secretsmanager get-secret-value --secret-id prod/db", "block"],
    ["gcloud secrets versions access latest --secret=db-pass", "block"],
    ["op read op://prod/db/password", "block"],
    ["op item get 'Prod DB' --fields password", "block"],
    ["doppler secrets get DB_PASSWORD --plain", "block"],
    ["doppler secrets download --no-file --format env", "block"],
    ["infisical export --env=prod", "block"],
    ["kubectl get secret db-creds -o yaml", "block"],
    ["kubectl get secrets -n prod -o json", "block"],
    ["az keyvault secret show --vault-name kv --name db", "block"],
    ["vault kv delete secret/prod/db", "ask"],
    ["aws secretsmanager delete-secret --secret-id prod/db", "ask"],
    // everyday
    ["vault kv list secret/prod", "allow"],
    ["vault status", "allow"],
    ["aws secretsmanager list-secrets", "allow"],
    ["gcloud secrets list", "allow"],
    ["op item list --vault prod", "allow"],
    ["doppler secrets --only-names", "allow"],
    ["kubectl get secrets", "allow"],
    ["kubectl get secret db-creds", "allow"],
    ["az keyvault secret list --vault-name kv", "allow"],
    ["vault kv put secret/dev/app key=value", "allow"],
  ]);

  family("9. a program reached by another of its names", [
    ["/usr/libexec/git-core/git reset --hard", "block"],
    ["busybox rm -rf /", "block"],
    ["'C:/Program Files/Git/cmd/git.exe' reset --hard", "block"],
    ["'C:\\Program Files\\Git\\cmd\\git.exe' reset --hard", "block"],
    ["git.exe push --force", "block"],
    ["psql-15 -c 'DROP TABLE users'", "block"],
    ["python3.11.exe -c \"import shutil; shutil.rmtree('/')\"", "block"],
    ["redis-cli.exe FLUSHALL", "block"],
    ["gh.exe repo delete acme/site --yes", "block"],
    // everyday
    ["git.exe status", "allow"],
    ["psql-15 -c 'SELECT 1'", "allow"],
    ["python3.11 -m pytest", "allow"],
    ["busybox ls", "allow"],
  ]);

  // Families found by the outside corpus (issue 23, second pass): table rows, each with its controls.
  family("code hosts and CI: archive, server-side contexts, dry runs, dashed git", [
    ["gh repo archive -y octo/app", "ask"],
    ["circleci context remove-secret github octo ctx TOKEN", "ask"],
    ["/usr/lib/git-core/git-push --delete upstream topic", "ask"],
    ["git-push origin :topic", "ask"],
    // everyday
    ["gh repo view octo/app", "allow"],
    ["gh repo unarchive -y octo/app", "allow"],
    ["glab repo archive octo/app", "allow"],
    ["circleci context list github octo", "allow"],
    ["circleci config validate", "allow"],
    ["git push -n --delete upstream topic", "allow"],
    ["git push --dry-run upstream :topic", "allow"],
    ["git-status", "allow"],
  ]);

  family("clouds and platforms: one object, disable verbs, workloads", [
    ["aws s3 rm s3://site/old/index.html", "ask"],
    ["firebase hosting:disable --site staging", "ask"],
    ["heroku features:disable preboot -a web", "ask"],
    ["kubectl delete statefulset postgres -n dev", "ask"],
    ["kubectl --context dev delete svc api", "ask"],
    ["oc delete deploy web", "ask"],
    // everyday
    ["aws s3 rm --dryrun s3://site/old/index.html", "allow"],
    ["aws s3 cp report.csv s3://site/reports/", "allow"],
    ["firebase hosting:channel:list", "allow"],
    ["firebase deploy --only hosting", "allow"],
    ["kubectl delete pod api-7f9c -n dev", "allow"],
    ["kubectl delete deployment api --dry-run=client", "allow"],
    ["kubectl get deployments -n dev", "allow"],
  ]);

  family("data services: one etcd key is everyday, a prefix is every key", [
    ["etcdctl del --prefix /services/", "block"],
    ["etcdctl del '' --from-key", "block"],
    // everyday
    ["etcdctl del /services/web/lock", "allow"],
    ["etcdctl --endpoints http://127.0.0.1:2379 del flags/beta", "allow"],
    ["etcdctl get --prefix /services/", "allow"],
  ]);

  family("data services over HTTP: one-label hosts, a variable host whose path says it", [
    ["curl -XPOST http://search:9200/logs/_delete_by_query -d '{\"query\":{\"match_all\":{}}}'", "block"],
    ["curl -X DELETE http://opensearch:9200/_all", "block"],
    ["curl -X DELETE \"${OPENSEARCH}/_all\"", "block"],
    ["curl -X POST \"$SEARCH/orders/_delete_by_query\" -d @q.json", "block"],
    // everyday
    ["curl \"$ES_URL/_all/_search\"", "allow"],
    ["curl http://search:9200/_cat/indices", "allow"],
    ["curl -X DELETE \"$API/todos/1\"", "allow"],
    ["curl -X DELETE http://api:3000/todos/1", "allow"],
  ]);

  family("data services: a mongo shell's total deletes, cqlsh through the SQL rules", [
    ["mongosh app --eval 'db.orders.remove({})'", "block"],
    ["mongo app --eval 'db.getCollection(\"logs\").drop()'", "block"],
    ["mongosh app --eval 'db.sessions.deleteMany( { } )'", "block"],
    ["cqlsh -e 'DROP KEYSPACE analytics'", "block"],
    ["cqlsh --execute='TRUNCATE shop.orders'", "block"],
    // everyday
    ["mongosh app --eval 'db.sessions.deleteMany({expired: true})'", "allow"],
    ["mongosh app --eval 'db.orders.find({}).count()'", "allow"],
    ["python -c 'df.drop()'", "allow"],
    ["cqlsh -e 'SELECT * FROM shop.users LIMIT 5'", "allow"],
    ["cqlsh -k shop -e 'DELETE FROM users WHERE id = 1'", "allow"],
  ]);

  family("backups: local snapshots, verb-first velero", [
    ["tmutil thinlocalsnapshots / 10000000000 4", "block"],
    ["velero delete schedule nightly --confirm", "block"],
    ["velero delete restore r-1", "block"],
    // everyday
    ["tmutil listlocalsnapshots /", "allow"],
    ["tmutil localsnapshot", "allow"],
    ["velero get backups", "allow"],
    ["velero create backup pre-upgrade", "allow"],
  ]);

  family("secrets: decrypting readers print the value; metadata and curl strings do not", [
    ["sops --decrypt config/prod.enc.json", "block"],
    ["sops decrypt config/prod.enc.json", "block"],
    ["pass show web/github", "block"],
    ["security find-internet-password -s github.com -w", "block"],
    ["security find-generic-password -a me -s npm -g", "block"],
    ["vault read secret/data/app", "block"],
    ["vault kv metadata delete -mount=secret app", "ask"],
    // everyday
    ["sops -d --output config/prod.json config/prod.enc.json", "allow"],
    ["sops -e -i config/prod.yaml", "allow"],
    ["pass show -c web/github", "allow"],
    ["pass ls", "allow"],
    ["pass insert web/new", "allow"],
    ["security find-generic-password -s npm", "allow"],
    ["vault kv metadata list secret/", "allow"],
    ["vault kv metadata put -max-versions 5 secret/app", "allow"],
    ["vault read -output-curl-string secret/data/app", "allow"],
    ["vault kv get -output-curl-string secret/app", "allow"],
  ]);

  describe("each effect rule does the work: without it the same commands pass", () => {
    it("block: devices, backups, code-host repositories, all of a data service, secret reads", () => {
      assertFamily("remote-wipe-device", "block", ["zpool destroy tank", "vgremove vg0"]);
      assertFamily("remote-destroy-backups", "block", ["restic forget --prune --keep-last 1", "borg delete /backups::a", "zfs destroy tank/data@2024", "aws ec2 delete-snapshot --snapshot-id snap-1"]);
      assertFamily("remote-destroy-code-host-repository", "block", ["gh repo delete acme/site --yes", "gh api -X DELETE repos/acme/site"]);
      assertFamily("remote-destroy-all-data", "block", ["curl -X DELETE http://es.internal:9200/logs-*", "etcdctl del --prefix /"]);
      assertFamily("remote-read-secret", "block", ["vault kv get secret/prod/db", "aws secretsmanager get-secret-value --secret-id prod/db", "kubectl get secret db -o yaml", "op read op://prod/db/password"]);
    });
    it("ask: cloud, code host, CI, data, secrets, hosted services, unknown CLIs, other machines", () => {
      assertFamily("infra-delete-cloud", "ask", ["hcloud server delete web-1", "neonctl projects delete p"]);
      assertFamily("remote-destroy-code-host", "ask", ["gh release delete v1 --yes", "git push origin --delete tag v1"], ["git-branch-force-delete"]);
      assertFamily("remote-destroy-ci", "ask", ["gh run delete 1", "gh workflow disable ci.yml"]);
      assertFamily("remote-destroy-data", "ask", ["kafka-topics --delete --topic t --bootstrap-server k:9092", "curl -X DELETE http://localhost:9200/logs-2024"]);
      assertFamily("remote-destroy-secret", "ask", ["vault kv delete secret/prod/db"]);
      assertFamily("remote-destroy-hosted", "ask", ["stripe subscriptions cancel sub_1"]);
      assertFamily("remote-destroy-unknown-cli", "ask", ["foo-cli widgets delete prod-widget"]);
      assertFamily("remote-overwrite", "ask", ["rsync -a --delete dist/ web1:/srv/app/"]);
    });
  });

  describe("the analysis reports remote effects with where they stand", () => {
    it("gh repo delete: a destroy-all of a code host, its span the invocation", () => {
      const a = analyzeCommand("cd x && gh repo delete acme/site --yes", { cwd: CWD, home: HOME });
      assert.equal(a.remote.length, 1);
      const e = a.remote[0];
      assert.equal(e.target, "code-host");
      assert.equal(e.program, "gh");
      assert.equal(e.resource, "acme/site");
      assert.equal("cd x && gh repo delete acme/site --yes".slice(e.span.start, e.span.end), "gh repo delete acme/site --yes");
    });
    it("through wrappers and bash -c", () => {
      for (const c of ["sudo -u ops vault kv get secret/x", "bash -c 'vault kv get secret/x'", "env VAULT_ADDR=x vault kv get secret/x", "echo secret/x | xargs vault kv get"]) {
        const a = analyzeCommand(c, { cwd: CWD, home: HOME });
        assert.ok(a.remote.some((e) => e.effect === "read-secret" && e.target === "secrets"), c);
      }
    });
    it("a remote branch deleted: the effect's reason, not the stand-in `git branch -D` pattern's", () => {
      const v = judge("git push origin --delete feature/x");
      assert.equal(v.action, "ask");
      assert.equal(v.rule?.id, "remote-destroy-code-host");
      assert.match(v.reason, /feature\/x/);
    });
    it("PowerShell: a native program reaches the same table", () => {
      const ps = (command: string) => decide({ tool: "PowerShell", input: { command } }, defaultRules(), { cwd: CWD, home: HOME }, "claude").action;
      assert.equal(ps("& 'C:\\Program Files\\GitHub CLI\\gh.exe' repo delete acme/site --yes"), "block");
      assert.equal(ps("vault kv get secret/prod/db"), "block");
      assert.equal(ps("gh pr list"), "allow");
    });
    it("the verdict's reason names the harm and what to do instead, and points at the effect", () => {
      const c = "ls && gh repo delete acme/site --yes";
      const v = judge(c);
      assert.equal(v.action, "block");
      assert.equal(v.rule?.id, "remote-destroy-code-host-repository");
      assert.equal(v.match?.text, "gh repo delete acme/site --yes");
      assert.match(v.reason, /acme\/site/);
      assert.ok(v.reason.includes('effect rule remote-destroy-code-host-repository "destroy-all code-host"'), v.reason);
      assert.match(v.reason, /\(.+\)/);
    });
  });

  describe("effect rules in a rules file", () => {
    it("a user's effect rule judges; an allow exception lifts a default effect rule by its text", () => {
      const { rules, diagnostics } = parseRules("bashToolPatterns:\n  - id: no-cloud-deletes\n    effect: destroy cloud\n    reason: not here (ask the platform team)\n");
      assert.deepEqual(diagnostics.filter((d) => d.severity === "error"), []);
      const v = decideCommand("doctl compute droplet delete web-1", rules, { cwd: CWD, home: HOME });
      assert.equal(v.action, "block");
      assert.equal(v.rule?.id, "no-cloud-deletes");
      const lifted = defaultRules();
      const { rules: user } = parseRules("allow:\n  - command: 'restic forget .*'\n    reason: my own scratch repository\n");
      const merged = { ...lifted, allow: user.allow };
      assert.equal(decideCommand("restic forget --prune --keep-last 1", merged, { cwd: CWD, home: HOME }).action, "allow");
    });
    it("an unknown effect word: a diagnostic with a did-you-mean fix", () => {
      const { diagnostics } = parseRules("bashToolPatterns:\n  - effect: destory backups\n    reason: x (y)\n");
      const d = diagnostics.find((x) => x.severity === "error");
      assert.ok(d, "an error");
      assert.match(d.message, /destroy/);
      assert.ok(d.fix?.newText.includes("destroy backups"));
    });
    it("exactly one of pattern or effect", () => {
      const { diagnostics } = parseRules("bashToolPatterns:\n  - pattern: x\n    effect: destroy backups\n    reason: x (y)\n");
      assert.ok(diagnostics.some((x) => x.severity === "error"));
    });
  });
});
