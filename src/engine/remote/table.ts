// Program → subcommand → effect on something outside the working tree (issue 23). DATA: adding a
// CLI is adding an entry, not writing code. Looked up once per invocation by program name (a Map).
//
// An entry has `rows` (subcommand words → effect, first match wins) and/or `verbs`: a family of
// destroy verbs that, standing among the CLI's command words, destroys a resource of `target`
// (`gcloud compute instances delete web-1`, `netlify sites:delete`). `special` names an analyser
// in analyze.ts for CLIs whose effect is in a URL or a refspec (curl, git push, rsync, ssh).
import type { RemoteEffectKind, RemoteTarget } from "../shell/types";
import type { RemoteProgram, RemoteRow } from "./row";
import { SYSTEM_ENTRIES } from "./system";
import { DATA_STORE_ENTRIES } from "./data-stores";

export type { RemoteProgram, RemoteRow, VerbFamily } from "./row";

const DRY_RUN = ["dry-run", "n", "dryrun", "dry"];
const row = (sub: string, effect: RemoteEffectKind, target: RemoteTarget, more: Partial<RemoteRow> = {}): RemoteRow => ({ sub: sub.split(" "), effect, target, ...more });

const codeHost = (extra: RemoteRow[] = []): RemoteProgram => ({
  rows: [
    ...extra,
    row("repo|repos|project delete|rm|remove", "destroy-all", "code-host"),
    row("release|releases delete|rm|remove", "destroy", "code-host"),
    row("release delete-asset", "destroy", "code-host"),
    row("secret|secrets delete|remove|rm", "destroy", "code-host"),
    row("variable|variables delete|remove|rm", "destroy", "code-host"),
    row("environment|environments delete|remove|rm", "destroy", "code-host"),
    row("label|labels|gist|ssh-key|gpg-key|deploy-key|ruleset|issue|codespace|webhook|milestone delete|remove|rm", "destroy", "code-host"),
    row("workflow disable", "destroy", "ci"),
    row("run|runs|ci|pipeline|schedule|job delete|remove|rm", "destroy", "ci"),
  ],
  special: "http",
});

/** Kubernetes kinds whose deletion takes a service down (a pod is recreated by its controller: everyday). */
const WORKLOADS = "deployment|deployments|deploy|statefulset|statefulsets|sts|daemonset|daemonsets|ds|cronjob|cronjobs|cj|service|services|svc|ingress|ingresses|ing|replicaset|replicasets|rs";
/** A dry run deletes nothing; everything of a kind (`--all`, `-A`) is infra-delete-kubernetes' pattern. */
const DRY_RUN_K8S = ["dry-run", "all", "A", "all-namespaces"];

const secretsReadAndDelete = (reads: string[], deletes: string[], unless: string[] = []): RemoteRow[] => [
  ...deletes.map((d) => row(d, "destroy", "secrets")),
  ...reads.map((r) => row(r, "read-secret", "secrets", { unless })),
];

const cloud = (target: RemoteTarget = "cloud", rows: RemoteRow[] = []): RemoteProgram => ({ verbs: "cloud", target, rows });
const hosted = (target: RemoteTarget = "hosted-service", rows: RemoteRow[] = []): RemoteProgram => ({ verbs: "hosted", target, rows });

const ENTRIES: Record<string, RemoteProgram> = {
  // Code hosts and CI.
  // gh's `repo archive` makes the repository read-only for everyone (glab's downloads a tarball).
  // A private repository made public (issue 36): its code and history are everyone's from then on.
  gh: codeHost([row("repo|repos archive", "destroy", "code-host"), row("repo|repos edit", "overwrite", "code-host", { when: ["visibility=public"] })]),
  glab: codeHost([row("repo|project edit|update", "overwrite", "code-host", { when: ["visibility=public", "public"] })]),
  tea: codeHost(),
  hub: codeHost(),
  git: { special: "git" },
  // A CircleCI context holds the pipelines' secrets on the server, not a local profile.
  circleci: { ...hosted("ci"), remoteGroups: ["context"] },
  argocd: hosted("ci"),
  argo: hosted("ci"),
  tkn: hosted("ci"),
  jenkins: hosted("ci"),
  "jenkins-cli": hosted("ci"),
  bk: hosted("ci"),
  travis: hosted("ci"),
  drone: hosted("ci"),
  "woodpecker-cli": hosted("ci"),
  // Clouds and platforms.
  aws: cloud("cloud", [
    // Backups turned off (issue 36): a retention of 0 deletes the automated backups.
    row("rds modify-db-instance|modify-db-cluster", "destroy", "backups", { when: ["backup-retention-period=0"] }),
    row("dynamodb update-continuous-backups", "destroy", "backups", { when: ["point-in-time-recovery-specification=PointInTimeRecoveryEnabled=false"] }),
    ...secretsReadAndDelete(["secretsmanager get-secret-value|batch-get-secret-value"], ["secretsmanager delete-secret", "ssm delete-parameter|delete-parameters"]),
    // A parameter's value is a secret's when it is decrypted (a SecureString).
    row("ssm get-parameter|get-parameters|get-parameters-by-path", "read-secret", "secrets", { when: ["with-decryption"] }),
    row("s3 rm", "destroy-all", "object-storage", { when: ["recursive"], unless: DRY_RUN }),
    row("s3 rm", "destroy", "object-storage", { unless: DRY_RUN }),
    row("s3 rb", "destroy", "object-storage", { all: ["force"] }),
    row("s3 sync", "destroy", "object-storage", { when: ["delete"], unless: DRY_RUN }),
    // Versioning suspended: the next overwrite or delete has no earlier version to restore (issue 36).
    row("s3api put-bucket-versioning", "destroy", "backups", { when: ["versioning-configuration=Status=Suspended"] }),
    row("ec2 create-replace-root-volume-task", "overwrite", "cloud"),
  ]),
  gcloud: cloud("cloud", [...secretsReadAndDelete(["secrets versions access"], ["secrets delete", "secrets versions destroy|disable"]), row("sql instances patch", "destroy", "backups", { when: ["no-backup"] })]),
  gsutil: { rows: [row("iam ch", "overwrite", "object-storage", { operand: /^all(Authenticated)?Users:/ }), row("rm", "destroy-all", "object-storage", { when: ["r", "R", "recursive"] }), row("rb", "destroy", "object-storage"), row("rsync", "destroy", "object-storage", { when: ["d"] })] },
  az: cloud("cloud", [
    ...secretsReadAndDelete(["keyvault secret show|download"], ["keyvault secret delete|purge", "keyvault delete|purge"]),
    row("storage blob delete-batch", "destroy-all", "object-storage"),
    row("backup protection disable", "destroy", "backups"),
    row("storage container|account|share|blob|fs|queue|table delete", "destroy", "object-storage"),
  ]),
  doctl: cloud(),
  hcloud: cloud(),
  "linode-cli": cloud(),
  oci: cloud(),
  scw: cloud(),
  ibmcloud: cloud(),
  aliyun: cloud(),
  exo: cloud(),
  fly: cloud(),
  flyctl: cloud(),
  // `pg:backups:unschedule` stops the daily backups of a database, as a retention of 0 does.
  heroku: cloud("cloud", [row("config:get", "read-secret", "secrets"), row("pg:backups:unschedule|pg:backups:cancel", "destroy", "backups")]),
  vercel: cloud(),
  netlify: cloud(),
  railway: cloud("cloud", [row("down", "destroy", "cloud")]),
  render: cloud(),
  wrangler: cloud("cloud", [row("secret delete", "destroy", "secrets")]),
  firebase: cloud("cloud", [row("firestore:delete", "destroy-all", "data-service", { when: ["all-collections", "r", "recursive"] }), row("database:remove", "destroy", "data-service")]),
  supabase: cloud(),
  neonctl: cloud(),
  neon: cloud(),
  pscale: cloud(),
  atlas: cloud(),
  turso: cloud(),
  upstash: cloud(),
  cf: cloud(),
  openstack: cloud(),
  "vultr-cli": cloud(),
  vultr: cloud(),
  // Object storage.
  mc: { rows: [row("rm", "destroy-all", "object-storage", { when: ["r", "recursive"], unless: DRY_RUN }), row("rb", "destroy", "object-storage"), row("mirror", "destroy", "object-storage", { when: ["remove"] })] },
  rclone: { special: "rclone" },
  s3cmd: { rows: [row("del|rm", "destroy-all", "object-storage", { when: ["r", "recursive"] }), row("rb", "destroy", "object-storage"), row("sync", "destroy", "object-storage", { when: ["delete-removed"] })] },
  // Data services.
  curl: { special: "http" },
  wget: { special: "http" },
  http: { special: "http" },
  https: { special: "http" },
  xh: { special: "http" },
  "kafka-topics": { rows: [row("*", "destroy", "data-service", { when: ["delete"] })] },
  "kafka-topics.sh": { rows: [row("*", "destroy", "data-service", { when: ["delete"] })] },
  "kafka-consumer-groups": { rows: [row("*", "destroy", "data-service", { when: ["delete", "reset-offsets"] })] },
  "kafka-consumer-groups.sh": { rows: [row("*", "destroy", "data-service", { when: ["delete", "reset-offsets"] })] },
  "kafka-delete-records": { rows: [row("*", "destroy", "data-service")] },
  "kafka-delete-records.sh": { rows: [row("*", "destroy", "data-service")] },
  rabbitmqadmin: { rows: [row("delete|purge", "destroy", "data-service")] },
  rabbitmqctl: { rows: [row("reset|force_reset", "destroy-all", "data-service"), row("delete_queue|purge_queue|delete_vhost|delete_user", "destroy", "data-service")] },
  nats: { rows: [row("stream|str|kv|object|obj|consumer|con rm|del|delete|purge", "destroy", "data-service")] },
  // One key deleted is everyday configuration work; a prefix or a range is every key under it.
  etcdctl: { rows: [row("del", "destroy-all", "data-service", { when: ["prefix", "from-key"] })] },
  consul: { rows: [row("kv delete", "destroy", "data-service", { all: ["recurse"] })] },
  influx: { rows: [row("bucket|org delete", "destroy", "data-service"), row("delete", "destroy", "data-service")] },
  // Hosted services: payments, alerting and monitoring, flags, CDN and DNS, email, gateways, search.
  stripe: hosted(),
  pagerduty: hosted(),
  pd: hosted(),
  datadog: hosted(),
  dog: hosted(),
  "datadog-ci": hosted(),
  newrelic: hosted(),
  opsgenie: hosted(),
  "sentry-cli": hosted(),
  launchdarkly: hosted(),
  ldcli: hosted(),
  flagsmith: hosted(),
  unleash: hosted(),
  cloudflare: hosted(),
  flarectl: hosted(),
  fastly: hosted(),
  akamai: hosted(),
  ngrok: hosted(),
  twilio: hosted(),
  sendgrid: hosted(),
  mailgun: hosted(),
  postmark: hosted(),
  auth0: hosted(),
  okta: hosted(),
  algolia: hosted(),
  contentful: hosted(),
  sanity: hosted(),
  shopify: hosted(),
  kong: hosted(),
  deck: hosted(),
  apigeecli: hosted(),
  // Backups and snapshots: what would have saved the user.
  restic: { rows: [row("forget|prune", "destroy", "backups", { unless: DRY_RUN }), row("key remove", "destroy", "backups")] },
  borg: { rows: [row("delete|prune|compact", "destroy", "backups", { unless: DRY_RUN }), row("recreate", "overwrite", "backups", { unless: DRY_RUN })] },
  borgmatic: { rows: [row("delete|prune|compact", "destroy", "backups", { unless: DRY_RUN })] },
  kopia: { rows: [row("snapshot delete|expire", "destroy", "backups", { unless: DRY_RUN }), row("repository|repo delete", "destroy-all", "backups")] },
  duplicity: { rows: [row("remove-older-than|remove-all-but-n-full|remove-all-inc-of-but-n-full|cleanup", "destroy", "backups", { unless: DRY_RUN })] },
  // velero takes both orders: `velero backup delete` and `velero delete backup`.
  velero: { rows: [row("backup|schedule|restore|backup-location|snapshot-location delete", "destroy", "backups"), row("delete backup|backups|schedule|schedules|restore|restores|backup-location|snapshot-location", "destroy", "backups")] },
  tmutil: { rows: [row("delete|deleteinprogress|disable|deletelocalsnapshots|thinlocalsnapshots", "destroy", "backups")] },
  zfs: { rows: [row("destroy", "destroy", "backups", { unless: ["n"] })] },
  btrfs: { rows: [row("subvolume|sub delete|del", "destroy", "backups")] },
  snapper: { rows: [row("delete|rm", "destroy", "backups")] },
  timeshift: { rows: [row("*", "destroy", "backups", { when: ["delete", "delete-all"] })] },
  // Devices and volumes named, not pathed: a pool, a volume group.
  zpool: { rows: [row("destroy|labelclear", "destroy-all", "device")] },
  lvremove: { rows: [row("*", "destroy-all", "device")] },
  vgremove: { rows: [row("*", "destroy-all", "device")] },
  pvremove: { rows: [row("*", "destroy-all", "device")] },
  // Secrets managers: a value read into the agent's context; listing names is not.
  // `kv metadata get|list|put` are a secret's versions and settings, not its value; -output-curl-string prints the request instead of running it.
  vault: {
    rows: [
      row("kv delete|destroy", "destroy", "secrets"),
      row("kv metadata delete", "destroy", "secrets"),
      row("delete", "destroy", "secrets"),
      row("kv get|patch", "read-secret", "secrets", { unless: ["output-curl-string"] }),
      row("read", "read-secret", "secrets", { unless: ["output-curl-string"] }),
    ],
  },
  op: { rows: [row("item|document delete|rm", "destroy", "secrets"), row("read|inject", "read-secret", "secrets"), row("item|document get", "read-secret", "secrets")] },
  doppler: { rows: [row("secrets delete|rm", "destroy", "secrets"), row("secrets", "read-secret", "secrets", { unless: ["only-names"] })] },
  infisical: { rows: [row("secrets delete", "destroy", "secrets"), row("export", "read-secret", "secrets"), row("secrets get", "read-secret", "secrets"), row("secrets", "read-secret", "secrets", { unless: ["plain-names", "silent"] })] },
  bw: { rows: [row("delete", "destroy", "secrets"), row("get", "read-secret", "secrets")] },
  // Decrypting to stdout puts the plaintext in the transcript; into a file (--output, -i) it does not.
  sops: { rows: [row("*", "read-secret", "secrets", { when: ["d", "decrypt"], unless: ["output", "i", "in-place"] }), row("decrypt", "read-secret", "secrets", { unless: ["output"] })] },
  pass: { rows: [row("show", "read-secret", "secrets", { unless: ["c", "clip", "q", "qrcode"] }), row("rm|remove|delete", "destroy", "secrets")] },
  // macOS keychain: -w prints the password, -g the whole item with it; without them only attributes.
  security: { rows: [row("find-generic-password|find-internet-password", "read-secret", "secrets", { when: ["w", "g"] }), row("dump-keychain", "read-secret", "secrets", { when: ["d"] }), row("delete-generic-password|delete-internet-password|delete-keychain", "destroy", "secrets")] },
  gopass: { rows: [row("rm|delete", "destroy", "secrets"), row("show|cat", "read-secret", "secrets")] },
  chamber: { rows: [row("delete", "destroy", "secrets"), row("read|export", "read-secret", "secrets")] },
  kubectl: { rows: [row("delete secret|secrets", "destroy", "secrets"), row("delete " + WORKLOADS, "destroy", "cloud", { unless: DRY_RUN_K8S }), row("get secret|secrets", "read-secret", "secrets", { when: ["o=yaml|json|jsonpath|go-template", "output=yaml|json|jsonpath|go-template"] })] },
  oc: { rows: [row("delete secret|secrets", "destroy", "secrets"), row("delete " + WORKLOADS, "destroy", "cloud", { unless: DRY_RUN_K8S }), row("get secret|secrets", "read-secret", "secrets", { when: ["o=yaml|json|jsonpath|go-template", "output=yaml|json|jsonpath|go-template"] })] },
  // Other machines.
  rsync: { special: "copy" },
  scp: { special: "copy" },
};

export const REMOTE_TABLE: ReadonlyMap<string, RemoteProgram> = new Map(Object.entries({ ...ENTRIES, ...SYSTEM_ENTRIES, ...DATA_STORE_ENTRIES }));

/**
 * Programs whose destroy verbs are everyday local work: a CLI outside the table with a destroy
 * verb aimed at a named resource is an ask, except these (a dependency removed, a local cluster,
 * a process, a toolchain). The programs the shell analysis handles itself (git, docker, make,
 * npm…) are never judged by the fallback either.
 */
export const EVERYDAY_VERB_PROGRAMS: ReadonlySet<string> = new Set(
  `pip pip3 pipx uv poetry pdm hatch conda mamba micromamba cargo rustup go gem bundle composer bun deno mvn gradle sbt mix
  swift pod flutter dart dotnet nuget apt apt-get dnf yum zypper pacman apk brew port choco winget scoop snap flatpak nix
  nix-env asdf mise nvm pyenv rbenv sdk code cursor kind k3d minikube colima multipass vagrant pm2 tmux screen systemctl
  launchctl service crontab ip nmcli ollama docker-compose lxc virsh conan vcpkg helm terraform tofu terragrunt pulumi
  cdk sst serverless sls kubectl oc xcrun simctl dvc ansible-galaxy supervisorctl rails rake`.split(/\s+/).filter(Boolean),
);
