// What counts as a secret in a command, a path or a reason, as data: the redaction (redact.ts)
// applies these tables before anything is written to the ledger, the feed, telemetry or a
// snapshot. Each row says what it covers; adding a secret shape is adding a row here.

/** What replaces a secret: short, and plainly not the value. */
export const MARK = "[REDACTED]";

/**
 * Variable names (assignments, `export`, `--env`, JSON keys, connection-string keys) whose value
 * is a credential: anywhere in the name, so PGPASSWORD and AWS_SECRET_ACCESS_KEY both count.
 */
export const SECRET_VARIABLE = /(?:key|token|secret|passw(?:or)?d|^pass$|_pass$|^pwd$|credential|auth|dsn|private|session|cookie|signature)/i;

/** The shell's own variables that match SECRET_VARIABLE by chance (PWD is the directory). */
export const NOT_SECRET_VARIABLES = ["PWD", "OLDPWD"];

/** Option names, word by word (`--api-key` is api, key): `--author` is not `auth`. */
export const SECRET_OPTION_WORD = /^(?:key|apikey|token|secret|password|passwd|pass|pwd|credentials?|auth|dsn|cookie|bearer)$/i;

/** Option names that carry a secret but whose value is not one (a flag, or where to read it from). */
export const NOT_A_VALUE = /(?:-stdin|-file|-path|-env|-cmd|-command|-helper|-id|-name|-type|-url|-header|-length|-prompt)$/i;

/**
 * Short options that carry a password only for some programs (`-p` is a port elsewhere):
 * "attached" is `-pVALUE` (the MySQL family: `-p VALUE` there names a database), "separate" is
 * `-p VALUE`, "user:password" keeps the user and hides what follows the colon.
 */
export const PROGRAM_OPTIONS: { programs: string[]; options: string[]; form: "attached" | "separate" | "user:password" }[] = [
  { programs: ["mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump", "mysqlimport", "mysqlshow", "mysqlcheck"], options: ["-p"], form: "attached" },
  { programs: ["sshpass", "docker login", "podman login", "mongosh", "mongo", "mongodump", "mongorestore"], options: ["-p"], form: "separate" },
  { programs: ["redis-cli", "keydb-cli"], options: ["-a"], form: "separate" },
  { programs: ["curl"], options: ["-u", "--user", "-U", "--proxy-user"], form: "user:password" },
];

/** HTTP headers whose value is a credential (the scheme word of Authorization is kept). */
export const SECRET_HEADERS = ["authorization", "proxy-authorization", "x-api-key", "api-key", "x-auth-token", "private-token", "x-goog-api-key", "x-amz-security-token", "cookie", "set-cookie", "x-vault-token", "x-csrf-token", "apikey", "x-access-token", "x-github-token"];

/**
 * Known token shapes, whatever surrounds them (a URL, a file's content, an argument): code hosts,
 * clouds, package registries, chat and payment APIs, model APIs, JWTs, private keys.
 */
export const TOKEN_SHAPES: { name: string; re: RegExp }[] = [
  { name: "private key", re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { name: "GitHub token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { name: "GitLab token", re: /\bgl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}/g },
  { name: "AWS access key id", re: /\b(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16}\b/g },
  { name: "Google API key", re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: "Google OAuth token", re: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { name: "Slack token", re: /\bxox[abposrce]-[0-9A-Za-z-]{10,}/g },
  { name: "Slack webhook", re: /hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { name: "Discord webhook", re: /discord(?:app)?\.com\/api\/webhooks\/[0-9]+\/[A-Za-z0-9_-]+/g },
  { name: "Stripe key", re: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/g },
  { name: "Stripe webhook secret", re: /\bwhsec_[0-9A-Za-z]{20,}/g },
  { name: "model API key", re: /\bsk-(?:ant-|proj-|svcacct-|or-)?[A-Za-z0-9_-]{20,}/g },
  { name: "npm token", re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: "PyPI token", re: /\bpypi-[A-Za-z0-9_-]{40,}/g },
  { name: "crates.io token", re: /\bcio[A-Za-z0-9]{32}\b/g },
  { name: "Hugging Face token", re: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { name: "Docker Hub token", re: /\bdckr_pat_[A-Za-z0-9_-]{20,}/g },
  { name: "DigitalOcean token", re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { name: "Shopify token", re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { name: "SendGrid key", re: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { name: "Twilio key", re: /\bSK[0-9a-fA-F]{32}\b/g },
  { name: "Azure storage key", re: /\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/=]{20,}/g },
  { name: "JWT", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: "Vault token", re: /\bhv[sb]\.[A-Za-z0-9_-]{20,}/g },
];
