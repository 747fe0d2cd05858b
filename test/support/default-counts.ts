// The embedded defaults (src/engine/rules/default-rules.yaml) counted by hand, so that the
// health, panel and status-bar tests compare what the product shows with numbers the code under
// test did not compute. Counted by reading the file: one bashToolPatterns entry per `- id:`;
// `ask: true` entries; path entries without the leading `!` (a `!entry` is a carve-out of its
// list, not a rule, and the counts leave it out). Changing the defaults means counting again.
export const DEFAULT_COUNTS = {
  // 4 delete/overwrite + 12 git + 14 database + 9 infrastructure + 3 secrets + 3 guard = 45 before
  // issue 23; then + 14 effect rules (infra-delete-s3 and infra-delete-cloud among them, which were
  // patterns: − 2) + sql-update-without-where + db-mongo-delete-all = 59; issue 35: + 6 of the
  // guard's own verbs (guard-serve, -install, -exceptions, -snapshots-delete, -restore, -endpoint);
  // issue 36: + secrets-exfiltrate, secrets-send-untied, system-everything, system-control,
  // git-prune-now, git-symbolic-ref-head
  bashPatterns: 71,
  // 7 of the git ones + the 9 infrastructure ones = 16; + the 7 effect rules with `ask: true`
  // (infra-delete-s3/-cloud were asks already, so + 9 − 2) = 23; issue 36: + secrets-send-untied, system-control,
  // git-prune-now, git-symbolic-ref-head
  ask: 27,
  // .env .env.local *.pem *.key ~/.ssh/ ~/.aws/ ~/.pi/agent/auth.json /proc/*/environ (2 `!` carve-outs not counted)
  // + 56 credential stores (issue 35: the block between "Credential stores" and its end, one per line)
  zeroAccess: 64,
  // .claude/settings*.json .pi/ ~/.pi/agent/damage-control/ ~/.pi/agent/settings.json + 10 lockfiles
  // = 14, + 30 block devices and system folders (issue 23: /dev/sd* … /etc/ /usr/bin/ … /var/lib/);
  // issue 36: + /var/log/ /proc/sysrq-trigger /proc/sys/
  readOnly: 47,
  // .git/ (its `!.git/**/*.lock` carve-out not counted)
  noDelete: 1,
  // 71 + 64 + 47 + 1 (toolNamePatterns are not in the counts)
  total: 183,
} as const;
