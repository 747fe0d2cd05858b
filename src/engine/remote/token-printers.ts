// CLI verbs whose purpose is to print a token, key or credential (issue 36, family 2). DATA, in
// the remote table's row format (program → subcommand → effect). The value is "shown" only when
// it reaches the agent: a consumer of the output (`| docker login --password-stdin`, `$(…)` in a
// header to the same service) uses it, and secret-flow.ts cancels the effect. The CLIs' other
// verbs are everyday (`gh auth status`, `aws configure get region`).
import type { RemoteRow } from "./row";

const shows = (sub: string, more: Partial<RemoteRow> = {}): RemoteRow => ({ sub: sub === "" ? [] : sub.split(" "), effect: "read-secret", target: "secrets", ...more });
/** A setting's name that holds a secret (`aws_secret_access_key`, `//registry.npmjs.org/:_authToken`). */
const SECRET_SETTING = /secret|token|password|_auth|credential|private/i;
/** Help prints no token. */
const HELP = ["help", "h"];

export const TOKEN_PRINTERS: ReadonlyMap<string, readonly RemoteRow[]> = new Map(
  Object.entries({
    gh: [shows("auth token", { unless: HELP }), shows("auth status", { when: ["show-token", "t"], unless: HELP })],
    glab: [shows("auth status", { when: ["show-token", "t"] }), shows("config get token"), shows("auth token")],
    // `aws configure get aws_secret_access_key` (any key naming a secret or a token); the others are settings.
    aws: [
      shows("configure get", { unless: HELP, operand: SECRET_SETTING }),
      shows("configure export-credentials"),
      shows("ecr|ecr-public get-login-password"),
      shows("codeartifact get-authorization-token"),
      shows("sts get-session-token|assume-role|assume-role-with-web-identity|get-federation-token"),
      shows("iam create-access-key"),
      shows("rds generate-db-auth-token"),
      shows("cognito-idp initiate-auth|admin-initiate-auth"),
    ],
    gcloud: [shows("auth print-access-token|print-identity-token|print-refresh-token"), shows("auth application-default print-access-token"), shows("config config-helper")],
    az: [shows("account get-access-token"), shows("acr login", { when: ["expose-token", "t"] }), shows("storage account keys list"), shows("cosmosdb keys list"), shows("ad sp credential reset"), shows("ad sp create-for-rbac")],
    // `heroku config` prints every config var of the app, its secrets included (`config:get NAME` is in table.ts).
    heroku: [shows("auth:token"), shows("authorizations:create"), shows("config")],
    fly: [shows("auth token"), shows("tokens create")],
    flyctl: [shows("auth token"), shows("tokens create")],
    doctl: [shows("auth token")],
    vault: [shows("print token"), shows("token create")],
    npm: [shows("config get", { operand: SECRET_SETTING }), shows("token create")],
    yarn: [shows("config get", { operand: SECRET_SETTING })],
    pnpm: [shows("config get", { operand: SECRET_SETTING })],
    kubectl: [shows("config view", { when: ["raw", "flatten"] }), shows("create token"), shows("set env", { when: ["list"] })],
    oc: [shows("whoami", { when: ["show-token", "t"] }), shows("config view", { when: ["raw", "flatten"] })],
    docker: [shows("inspect", { when: ["format=*Env*|*Config}*|*.Config |*json .Config*", "f=*Env*|*Config}*|*.Config |*json .Config*"] })],
    podman: [shows("inspect", { when: ["format=*Env*|*Config}*|*.Config |*json .Config*", "f=*Env*|*Config}*|*.Config |*json .Config*"] })],
    git: [shows("credential fill"), shows("credential-cache get|credential-store get")],
    "secret-tool": [shows("lookup")],
    // Docker's credential helpers print the stored registry password for the server read on stdin.
    ...Object.fromEntries(["desktop", "osxkeychain", "wincred", "pass", "secretservice", "ecr-login", "gcloud", "acr-env"].map((h) => [`docker-credential-${h}`, [shows("get")]])),
    keyring: [shows("get")],
    "kwallet-query": [shows("", { when: ["r", "read-password"] })],
    gpg: [shows("", { when: ["export-secret-keys", "export-secret-subkeys"] })],
    gpg2: [shows("", { when: ["export-secret-keys", "export-secret-subkeys"] })],
    // BSD-style `ps eww`, `ps auxe`: `e` prints every process's environment (`ps -e` lists all processes).
    ps: [shows("*", { match: /^[A-Za-z]*e[A-Za-z]*$/ })],
    firebase: [shows("login:ci")],
    stripe: [shows("config", { when: ["list"] })],
    netlify: [shows("env:get|env:list", { when: ["plain", "json"] })],
    supabase: [shows("status", { when: ["output=env|json", "o=env|json"] })],
    railway: [shows("variables", { unless: HELP })],
    wrangler: [shows("secret get")],
  }),
);
