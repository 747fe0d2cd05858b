// Program → effect: which arguments a program deletes, writes or reads, as data. One row per
// program (or program + subcommand); adding a tool is adding a row, not writing a handler.
// The generic reading of an unknown program still applies to every row (its text is shown to the
// patterns, every word that may name a file counts as read), then the row adds what it knows:
//   - `operands`: what happens to its operands (files and folders it is given);
//   - `when` / `unless`: the options that turn the effect on (`prettier --write`) or off
//     (`black --check`);
//   - `optionEffects`: options whose value is deleted/written/read (`curl -o FILE`);
//   - `noOperands`: the folder affected when none is given (`cargo fmt` rewrites the crate);
//   - `showAs`: the command it amounts to, shown to the patterns (`rimraf X` → `rm -rf X`), so
//     a rule written for that command judges it;
//   - `kinds`: a formatter rewrites only files of its own kinds (file-kinds.ts): `black .` is a
//     rewrite of the Python files below `.`, judged against the path rules by kind;
//   - `uses`: options whose value is a credential file the program authenticates with
//     (`ssh -i KEY`, `curl --cert`): the program uses it and never shows it, so it is not a read.
// Runner options that load environment files (`--env-file`) and container mounts are read for
// every program (see `genericEffects`).
import { has, parseOptions, valuesOf } from "../options";
import type { Handler, Invocation, RunResult, Runner } from "../runner";
import { known, syntheticArg, type Arg } from "../words";
import { CONTAINER_CLIS, shown, subArg } from "./common";
import { CREDENTIAL_USES } from "./credentials";
import { FORMATTER_KINDS } from "./file-kinds";
import { DEVICE_ROWS } from "./devices";
import type { EffectRow } from "./effect-row";

export type { EffectRow } from "./effect-row";


const OPENSSL_VALUES = ["in", "out", "inform", "outform", "CAkey", "CA", "CAfile", "CApath", "untrusted", "signkey", "key", "days", "set_serial", "extfile", "extensions", "subj", "nameopt", "certopt", "passin", "passout", "config", "keyform", "certform"];
const FORMATTER_UNLESS = ["check", "diff", "dry-run", "l", "list-different", "d"];

export const EFFECT_TABLE: Record<string, EffectRow[]> = {
  // Deleters that are not rm.
  rimraf: [{ operands: "delete", recursive: true, showAs: ["rm", "-rf"], spec: { longWithValue: ["glob"] } }],
  "del-cli": [{ operands: "delete", recursive: true, showAs: ["rm", "-rf"] }],
  "trash-put": [{ operands: "delete", recursive: true, showAs: ["rm", "-r"] }],
  trash: [{ operands: "delete", recursive: true, showAs: ["rm", "-r"] }],
  gio: [{ sub: ["trash"], operands: "delete", recursive: true, showAs: ["rm", "-r"] }, { sub: ["remove"], operands: "delete" }],
  // In-place rewriters: formatters and fixers.
  prettier: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.prettier, when: ["write", "w"], spec: { longWithValue: ["config", "ignore-path", "plugin", "parser", "log-level", "cache-location"] } }],
  black: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.black, unless: FORMATTER_UNLESS, spec: { shortWithValue: "lctS", longWithValue: ["line-length", "target-version", "config", "include", "exclude", "extend-exclude", "force-exclude", "stdin-filename", "workers", "required-version"] } }],
  ruff: [
    { sub: ["format"], operands: "write", recursive: true, kinds: FORMATTER_KINDS.ruff, unless: FORMATTER_UNLESS, noOperands: "cwd", spec: { longWithValue: ["config", "line-length", "target-version", "exclude", "extend-exclude", "stdin-filename"] } },
    { sub: ["check"], operands: "write", recursive: true, kinds: FORMATTER_KINDS.ruff, when: ["fix", "unsafe-fixes"], noOperands: "cwd", spec: { longWithValue: ["config", "select", "ignore", "extend-select", "exclude", "extend-exclude", "target-version", "output-format"] } },
  ],
  eslint: [{ operands: "write", recursive: true, when: ["fix", "fix-dry-run-never"], spec: { shortWithValue: "fco", longWithValue: ["config", "format", "output-file", "ext", "rule", "plugin", "parser", "ignore-path", "resolve-plugins-relative-to", "cache-location", "max-warnings"] }, optionEffects: { o: "write", "output-file": "write" } }],
  gofmt: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.go, when: ["w"], spec: { shortWithValue: "r" } }],
  goimports: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.go, when: ["w"], spec: { shortWithValue: "l" } }],
  rustfmt: [{ operands: "write", kinds: FORMATTER_KINDS.rust, unless: ["check"], spec: { longWithValue: ["edition", "config-path", "config", "emit", "color"] } }],
  cargo: [{ sub: ["fmt"], unless: ["check"], noOperands: "cwd", operands: "write", recursive: true, kinds: FORMATTER_KINDS.rust }],
  "clang-format": [{ operands: "write", when: ["i"], spec: { longWithValue: ["style", "assume-filename"] } }],
  autopep8: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.python, when: ["i", "in-place"] }],
  yapf: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.python, when: ["i", "in-place"], spec: { longWithValue: ["style", "exclude"] } }],
  isort: [{ operands: "write", recursive: true, kinds: FORMATTER_KINDS.isort, unless: ["check-only", "c", "diff"], noOperands: "cwd" }],
  shfmt: [{ operands: "write", recursive: true, when: ["w", "write"] }],
  // terraform fmt rewrites only *.tf files: without operands its folder is not named.
  terraform: [{ sub: ["fmt"], operands: "write", recursive: true, kinds: FORMATTER_KINDS.terraform, unless: ["check"] }],
  biome: [{ sub: ["format"], operands: "write", recursive: true, kinds: FORMATTER_KINDS.biome, when: ["write", "apply"] }, { sub: ["check"], operands: "write", recursive: true, kinds: FORMATTER_KINDS.biome, when: ["write", "apply"] }, { sub: ["lint"], operands: "write", recursive: true, kinds: FORMATTER_KINDS.biome, when: ["write", "apply"] }],
  // Downloads onto a path.
  curl: [{ uses: CREDENTIAL_USES.curl, spec: { shortWithValue: "oKTuHdXAeEbcDF", longWithValue: ["output", "config", "upload-file", "user", "header", "data", "request", "user-agent", "referer", "cert", "key", "cacert", "capath", "proxy-cert", "proxy-key", "proxy-cacert", "cookie", "cookie-jar", "dump-header", "form", "trace", "stderr"] }, optionEffects: { o: "write", output: "write", "cookie-jar": "write", c: "write", "dump-header": "write", D: "write", trace: "write", stderr: "write" } }],
  wget: [{ uses: CREDENTIAL_USES.wget, spec: { shortWithValue: "OoaPe", longWithValue: ["output-document", "output-file", "append-output", "directory-prefix", "execute", "certificate", "private-key", "ca-certificate"] }, optionEffects: { O: "write", "output-document": "write", o: "write", "output-file": "write", a: "write", "append-output": "write", P: "write", "directory-prefix": "write" } }],
  // Programs that authenticate with a credential file (credentials.ts): the file is used, not read.
  ssh: [{ uses: CREDENTIAL_USES.ssh, spec: { shortWithValue: "BbcDEeFIiJLlmOopQRSWw" } }],
  sftp: [{ uses: CREDENTIAL_USES.sftp, spec: { shortWithValue: "BbcDFiJloPRSs" } }],
  "ssh-add": [{ usesOperands: true, spec: { shortWithValue: "EHSt" } }],
  openssl: [
    ...["s_client", "s_server", "s_time"].map((s) => ({ sub: [s], uses: CREDENTIAL_USES.openssl, spec: { singleDashLong: true, longWithValue: ["connect", "accept", "port", "cert", "key", "CAfile", "CApath", "cert_chain", "chainCAfile", "servername", "pass", "proxy", "starttls", "keyform", "certform"] } })),
    // A private key whose PUBLIC half is derived (`-pubout`) is used, not shown. rsa and ec print
    // the private components with `-text` even beside `-pubout` (apps/rsa.c, apps/ec.c); pkey's
    // `-text` follows `-pubout`, and its `-text_pub` prints the public half only.
    ...["rsa", "ec"].map((s) => ({ sub: [s], uses: ["in"], usesWhen: ["pubout"], usesUnless: ["text"], spec: { singleDashLong: true, longWithValue: OPENSSL_VALUES } })),
    { sub: ["pkey"], uses: ["in"], usesWhen: ["pubout", "text_pub"], spec: { singleDashLong: true, longWithValue: OPENSSL_VALUES } },
  ],
  // Deriving the public key from a private key (`-y`, `-e`): the key is used. (`-l` stays a read:
  // the fresh corpus counts a fingerprint of a key as reading it.)
  "ssh-keygen": [{ uses: ["f"], usesWhen: ["y", "e"], spec: { shortWithValue: "fCNtbZEmnOPIsVzrDJjKMGTWaw" } }],
  kubectl: [{ uses: CREDENTIAL_USES.kubectl, spec: { shortWithValue: "nlosc", longWithValue: ["client-key", "client-certificate", "certificate-authority", "kubeconfig", "context", "cluster", "user", "namespace", "server", "token", "output", "selector", "filename"] } }],
  // Block devices and volumes (devices.ts).
  ...DEVICE_ROWS,
};

/** curl's `--key` signs for the `--cert` beside it: a key without one authenticates nothing. */
function keyWithoutCert(name: string, p: ReturnType<typeof parseOptions>): boolean {
  if (name === "key") return !has(p, "cert", "E");
  if (name === "proxy-key") return !has(p, "proxy-cert");
  return false;
}

/** The unknown-program reading: every word that may name a file is read, except those in `skip`. */
export type GenericReading = (inv: Invocation, r: Runner, skip?: ReadonlySet<Arg>) => RunResult | void;

/** The handler for a program with table rows; `generic` is the unknown-program reading. */
export function tableHandler(rows: EffectRow[], generic: GenericReading): Handler {
  return (inv, r) => {
    const row = rows.find((x) => !x.sub || x.sub.every((w, i) => inv.args[i]?.value === w));
    if (!row) return generic(inv, r);
    const args = inv.args.slice(row.sub?.length ?? 0);
    const p = parseOptions(args, row.spec ?? {});
    const on = (!row.when || has(p, ...row.when)) && !(row.unless && has(p, ...row.unless));
    if (row.showAs && on) r.emitText([...row.showAs, ...p.operands.map(shown)].join(" "), inv.span);
    // A credential file the program authenticates with is used, not read: neither the option
    // word (`--cert=FILE`) nor its value is a read of the file.
    const used = new Set<Arg>();
    const usesOn = (!row.usesWhen || has(p, ...row.usesWhen)) && !(row.usesUnless && has(p, ...row.usesUnless));
    for (const o of p.options) if (usesOn && row.uses?.includes(o.name) && !keyWithoutCert(o.name, p)) for (const a of [o.arg, o.value]) if (a) used.add(a);
    if (row.usesOperands) for (const a of p.operands) used.add(a);
    const result = generic(inv, r, used);
    const via = [inv.name, ...(row.sub ?? [])].join(" ");
    if (on && row.operands) {
      const narrow = row.kinds && row.operands === "write" ? { only: row.kinds, reformat: true } : undefined;
      for (const a of p.operands) r.path(inv, a, row.operands, row.recursive ?? false, via, narrow);
      if (p.operands.length === 0 && row.noOperands === "cwd" && inv.scope.cwd !== undefined) r.sink.effect(inv.scope.cwd, row.operands, row.recursive ?? false, inv.span, via, narrow);
    }
    for (const [name, access] of Object.entries(row.optionEffects ?? {})) for (const v of valuesOf(p, name)) r.path(inv, v, access, false, `${inv.name} ${name.length === 1 ? "-" : "--"}${name}`);
    return result;
  };
}

/**
 * Effects of options any runner may take: `--env-file X` / `--env-file=X` (node, deno, bun,
 * docker, uv, compose…) reads X; a container's `-v HOST:CTR` / `--volume` / `--mount
 * type=bind,src=HOST` exposes HOST (and all below it) to the container: a recursive read.
 */
export function genericEffects(inv: Invocation, r: Runner): void {
  const args = inv.args;
  const container = CONTAINER_CLIS.has(inv.name);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    // Only options matter here: skip every other word cheaply (this runs for every command).
    if (a.value === undefined || a.value.charCodeAt(0) !== 45 || a.unknown || (!container && !a.value.includes("env"))) continue;
    const env = /^--?env-?file(?:=(.*))?$/.exec(a.value);
    if (env) {
      const v = env[1] !== undefined ? subArg(a, env[1]) : args[i + 1];
      if (v) r.path(inv, v, "read", false, `${inv.name} --env-file`);
      continue;
    }
    if (!container) continue;
    const vol = /^(?:-v|--volume)(?:=(.*))?$/.exec(a.value) ?? (/^-v(.+)$/.exec(a.value) as RegExpExecArray | null);
    if (vol) {
      const spec = vol[1] !== undefined ? subArg(a, vol[1]) : args[i + 1];
      const host = spec && known(spec) ? spec.value.split(":")[0] : undefined;
      if (spec && host && /^[/~.$]/.test(host)) r.path(inv, host === spec.value ? spec : hostArg(spec, host), "read", true, `${inv.name} -v`);
      continue;
    }
    const mount = /^--mount(?:=(.*))?$/.exec(a.value);
    if (mount) {
      const spec = mount[1] !== undefined ? subArg(a, mount[1]) : args[i + 1];
      const src = spec && known(spec) ? /(?:^|,)(?:src|source)=([^,]+)/.exec(spec.value) : null;
      if (spec && src) r.path(inv, hostArg(spec, src[1]), "read", true, `${inv.name} --mount`);
    }
  }
}

/** The host side of a mount spec, as its own argument (`~` expanded as the shell would not). */
function hostArg(spec: Arg, host: string): Arg {
  return syntheticArg(host, spec.span);
}
