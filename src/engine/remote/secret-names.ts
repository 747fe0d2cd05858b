// Which environment variables hold a secret, and which service each belongs to (issue 36). DATA:
// a variable is a secret by the words of its name (`OPENAI_API_KEY`, `GITHUB_TOKEN`,
// `DATABASE_URL`); its service is the other words of the name, through a short alias list
// (`GH` → github, `HF` → huggingface). "Use is not exfiltration": a secret sent as the
// authentication of a request to a host of its own service is everyday; a host that cannot be tied
// to it is an ask; any other host, and a query, a body or an upload, is exfiltration.

/** A word of the name that says the value is a secret. */
const SECRET_WORD = /(^|_)(API_?KEY|APIKEY|KEY|TOKEN|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PASSPHRASE|PWD_?SECRET|CREDENTIAL|CREDENTIALS|CREDS|PRIVATE|AUTH|DSN|SESSION|COOKIE|PAT|WEBHOOK|SIGNING|BEARER)(_|$)|^(DATABASE|DB|REDIS|MONGO|MONGODB|POSTGRES|POSTGRESQL|PG|MYSQL|AMQP|RABBITMQ|SENTRY)_(URL|URI|DSN)$|CONNECTION_?STRING/;
/** A last word that says the value is not the secret itself: where it is, who it is, how it is set. */
const NOT_SECRET = /(^|_)(PUBLIC|PUBLISHABLE|ID|NAME|USER|USERNAME|FILE|PATH|DIR|HOST|PORT|REGION|TYPE|EXPIRY|EXPIRES|EXPIRATION|LENGTH|LEN|ENABLED|SOCK|ENDPOINT|HEADER|PREFIX|VERSION|MODE|TIMEOUT|SCOPE|SCOPES|LOCATION|ALGORITHM|HELPER|COMMAND|CMD|STORE|STORE_DIR|EMAIL|FINGERPRINT)$|^(NEXT|VITE|EXPO|REACT_APP)_PUBLIC_|^PWD$|^OLDPWD$|(^|_)KEYMAP|KEYBOARD|^GPG_TTY$|^SSH_AUTH_SOCK$|^SSH_AGENT_PID$/;

/** An environment-style name (capitals, digits, `_`) whose words say it holds a secret. */
export function isSecretName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name) && SECRET_WORD.test(name) && !NOT_SECRET.test(name);
}

/** Words of a name that say nothing about the service (`API`, `KEY`, `TOKEN`, `PROD`…). */
const GENERIC = new Set(
  `API KEY KEYS APIKEY TOKEN TOKENS SECRET SECRETS ACCESS AUTH PRIVATE PASSWORD PASSWD PASS PASSPHRASE APP BOT CLIENT PERSONAL
  USER SERVICE ACCOUNT DEPLOY PROD PRODUCTION DEV STAGING TEST MY READ WRITE ADMIN CI ID V1 V2 V3 BEARER OAUTH OAUTH2 REFRESH
  SESSION WEBHOOK SIGNING ENCRYPTION MASTER ROOT DB DATABASE URL URI DSN CREDENTIAL CREDENTIALS CREDS PAT COOKIE SERVER LOCAL
  DEFAULT PRIMARY SECONDARY NEW OLD OUR THE INTEGRATION INTERNAL EXTERNAL BACKEND FRONTEND WEB HTTP HTTPS REST JWT HMAC
  CONNECTION STRING`.split(/\s+/).filter(Boolean),
);

/** A name word → the word its service's host names carry, where the two differ. */
const ALIASES: Record<string, string[]> = {
  GH: ["github"], GHCR: ["github", "ghcr"], GITHUB: ["github", "githubusercontent"], GL: ["gitlab"], HF: ["huggingface", "hf"],
  HUGGINGFACE: ["huggingface", "hf"], HUGGING: ["huggingface"], CF: ["cloudflare"], DO: ["digitalocean"], DIGITALOCEAN: ["digitalocean"],
  AWS: ["amazonaws", "aws"], GCP: ["googleapis", "google"], GOOGLE: ["googleapis", "google"], GCLOUD: ["googleapis"], GEMINI: ["googleapis"],
  AZURE: ["azure", "microsoft", "windows"], NPM: ["npmjs", "npm"], PYPI: ["pypi", "pythonhosted"], TWINE: ["pypi"], CLAUDE: ["anthropic"],
  DD: ["datadoghq", "datadog"], DATADOG: ["datadoghq", "datadog"], JIRA: ["atlassian", "jira"], CONFLUENCE: ["atlassian"], BB: ["bitbucket"],
  DOCKER: ["docker"], DOCKERHUB: ["docker"], CIRCLE: ["circleci"], FLY: ["fly"], TF: ["terraform", "hashicorp"], VAULT: ["vault"],
  SUPABASE: ["supabase"], PD: ["pagerduty"], CODECOV: ["codecov"], SONAR: ["sonarcloud", "sonarqube", "sonar"], NGROK: ["ngrok"],
  TG: ["telegram"], TELEGRAM: ["telegram"], SLACK: ["slack"], MS: ["microsoft"], OPENAI: ["openai"], ANTHROPIC: ["anthropic"],
};

/** The host-name words of the service a secret variable belongs to (empty: it names no service). */
export function serviceOf(name: string): string[] {
  const out: string[] = [];
  for (const w of name.split("_")) {
    if (w === "" || GENERIC.has(w) || /^\d+$/.test(w)) continue;
    const alias = Object.prototype.hasOwnProperty.call(ALIASES, w) ? ALIASES[w] : undefined;
    if (alias) out.push(...alias);
    else if (w.length >= 3) out.push(w.toLowerCase());
  }
  return out;
}

/** The service a token-printing CLI's output belongs to (`gh auth token` → github). */
export const CLI_SERVICE: Record<string, string[]> = {
  gh: ["github", "ghcr"], glab: ["gitlab"], aws: ["amazonaws", "aws"], gcloud: ["googleapis", "google", "gcr", "pkg"], az: ["azure", "microsoft", "azurecr"],
  heroku: ["heroku"], fly: ["fly"], flyctl: ["fly"], doctl: ["digitalocean"], npm: ["npmjs"], vercel: ["vercel"], vault: ["vault"], kubectl: [], docker: ["docker"],
};

/** This machine: a secret sent here has not left it. */
export function isLoopback(host: string): boolean {
  return /^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0|host\.docker\.internal)$/i.test(host) || /\.localhost$/i.test(host);
}

/** Is `host` one of the service's (a word of the service is a label, or starts one: `api.github.com`, `ghcr.io`)? */
export function hostOfService(host: string, service: readonly string[]): boolean {
  const labels = host.toLowerCase().split(".");
  return service.some((w) => labels.some((l) => l === w || l.startsWith(w) || l.endsWith(w)));
}
