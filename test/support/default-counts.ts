// The embedded defaults (src/engine/rules/default-rules.yaml) counted by hand, so that the
// health, panel and status-bar tests compare what the product shows with numbers the code under
// test did not compute. Counted by reading the file: one bashToolPatterns entry per `- id:`;
// `ask: true` entries; path entries without the leading `!` (a `!entry` is a carve-out of its
// list, not a rule, and the counts leave it out). Changing the defaults means counting again.
export const DEFAULT_COUNTS = {
  // 4 delete/overwrite + 12 git + 14 database + 9 infrastructure + 3 secrets + 3 guard
  bashPatterns: 45,
  // 7 of the git ones (checkout-dot … checkout-file) + all 9 infrastructure ones
  ask: 16,
  // .env .env.local *.pem *.key ~/.ssh/ ~/.aws/ ~/.pi/agent/auth.json /proc/*/environ (2 `!` carve-outs not counted)
  zeroAccess: 8,
  // .claude/settings*.json .pi/ ~/.pi/agent/damage-control/ ~/.pi/agent/settings.json + 10 lockfiles
  readOnly: 14,
  // .git/ (its `!.git/**/*.lock` carve-out not counted)
  noDelete: 1,
  // 45 + 8 + 14 + 1
  total: 68,
} as const;
