// Secrets in one command line (issue 36, families 1 and 2): a secret *source* — a secret-named
// variable, a token-printing CLI verb (remote/token-printers.ts), an interpreter reading the
// environment — flowing into a network *sink* (remote/network.ts) is exfiltration; printed with no
// consumer it is shown to the agent. A source's output carries a SecretMark along the pipeline
// (pass-through filters keep it); a consumer that is not a sink uses it (`| docker login
// --password-stdin`), a redirection to a file stores it, a `$(…)` turns it into a word.
// "Use is not exfiltration": a secret as the authentication of a request to a host of its own
// service passes; a host it cannot be tied to is asked; anything else is refused.
import { interpreterFamily } from "./interpreters";
import { tokenPrinted } from "../../remote/analyze";
import { codeHttpDelete } from "../../remote/http";
import { sinkRequest, variablesIn, type SinkRequest } from "../../remote/network";
import { CLI_SERVICE, hostOfService, isLoopback, isSecretName, serviceOf } from "../../remote/secret-names";
import { TOKEN_PRINTERS } from "../../remote/token-printers";
import type { Invocation, Runner } from "../runner";
import type { SecretMark, Stdin } from "../stdin";
import type { ExecutedCommand, RemoteEffect } from "../types";
import { namesOnlyFilter } from "./name-filter";
import { credentialEndpoint } from "../../remote/metadata";
import { known } from "../words";

/** Programs that print their arguments. */
const PRINTERS = new Set(["echo", "printf", "print", "say"]);
/** Builtins that print the variables they name (`declare -p GITHUB_TOKEN`). */
const DECLARERS = new Set(["declare", "typeset", "export", "local", "readonly"]);
/** Filters whose output is their input, transformed: a secret passes through them. */
const PASS_THROUGH = new Set(
  `cat tee base64 base32 basenc xxd od hexdump rev tr cut sed awk gawk head tail grep egrep fgrep rg sort uniq jq yq fold fmt
  gzip bzip2 xz zstd column nl paste sponge strings iconv expand unexpand`.split(/\s+/).filter(Boolean),
);

/** Called for every invocation after its handler: returns its stdout with the secret it carries, if any. */
export function secretFlow(inv: Invocation, r: Runner, stdout: Stdin): Stdin {
  const input = inv.stdin.secret;
  const texts = inv.args.map((a) => a.text);
  const req = sinkRequest(inv.name, texts);
  if (req) {
    judgeSink(inv, r, req, input);
    r.sink.consume(input);
    const cloud = req.kind === "http" ? instanceCredentials(inv, r) : undefined;
    return cloud ? { ...stdout, secret: cloud } : plain(stdout);
  }
  // `env | grep -E '^(PATH|LANG)='`: the dump reaches the agent only through the name filter.
  if (input?.dump && namesOnlyFilter(inv)) {
    input.dump.confined = "names";
    return plain(stdout);
  }
  const dump = environmentDump(inv, r);
  if (dump) return { ...stdout, secret: { what: "the environment", whole: true, dump } };
  const own = interpreterFamily(inv.name);
  // deno and bun run JavaScript: node's table reads them.
  const family = own === "deno" || own === "bun" || inv.name === "deno" || inv.name === "bun" ? "node" : own;
  if (family !== undefined) {
    const mark = interpreterSecrets(inv, r, family) ?? instanceCredentials(inv, r);
    if (input) r.sink.consume(input);
    return mark ? { ...stdout, secret: mark } : plain(stdout);
  }
  const searched = secretSearch(inv);
  if (searched) r.sink.remoteEffect({ effect: "read-secret", target: "secrets", program: inv.name, resource: searched, span: inv.span, via: `${inv.name} searching the whole tree for a secret` });
  const rows = TOKEN_PRINTERS.get(inv.name);
  const printed = rows && tokenPrinted({ name: inv.name, args: inv.args.map((a) => (known(a) ? a.value : undefined)), span: inv.span }, rows);
  if (printed) return { ...stdout, secret: r.sink.show(printed, { what: printed.via, service: Object.prototype.hasOwnProperty.call(CLI_SERVICE, inv.name) ? CLI_SERVICE[inv.name] : undefined }) };
  const shown = PRINTERS.has(inv.name) ? printedSecret(inv, r) : DECLARERS.has(inv.name) ? declaredSecret(inv) : undefined;
  if (shown) {
    const e: RemoteEffect = { effect: "read-secret", target: "secrets", program: inv.name, resource: shown.what, span: inv.span, via: `${inv.name} of a secret` };
    if (input) r.sink.consume(input);
    return { ...stdout, secret: r.sink.show(e, shown) };
  }
  // `cat <<< "$STRIPE_SECRET_KEY"`: a filter printing a here-string or here-document that holds a secret.
  if (!input && PASS_THROUGH.has(inv.name) && inv.stdin.kind === "text") {
    const mark = secretsIn(inv.stdin.code.text, r)[0];
    if (mark) return { ...stdout, secret: r.sink.show({ effect: "read-secret", target: "secrets", program: inv.name, resource: mark.what, span: inv.span, via: `${inv.name} of a secret` }, mark) };
  }
  // A copy written by tee holds every variable: what a later name filter keeps no longer confines the dump.
  if (input && PASS_THROUGH.has(inv.name)) return { ...stdout, secret: inv.name === "tee" && input.dump ? { ...input, dump: undefined } : input };
  if (input) r.sink.consume(input);
  return stdout.secret === input ? plain(stdout) : stdout;
}

/** A request for a cloud instance's credentials (remote/metadata.ts): its answer is a secret, printed unless consumed. */
function instanceCredentials(inv: Invocation, r: Runner): SecretMark | undefined {
  for (const a of inv.args) {
    const cloud = credentialEndpoint(a.text);
    if (cloud === undefined) continue;
    const what = `the ${cloud} instance's credentials`;
    return r.sink.show({ effect: "read-secret", target: "secrets", program: inv.name, resource: what, span: inv.span, via: `${inv.name} asking the cloud metadata service` }, { what, whole: true });
  }
  return undefined;
}

/** `env`, `printenv` with no command and no name: the command that prints every variable. */
function environmentDump(inv: Invocation, r: Runner): ExecutedCommand | undefined {
  const words = inv.args.map((a) => (known(a) ? a.value : undefined));
  const dumps = inv.name === "printenv" ? words.every((w) => w?.startsWith("-")) : inv.name === "env" && words.every((w) => w !== undefined && (w.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)));
  if (!dumps) return undefined;
  return r.sink.commands.find((c) => c.span.start === inv.span.start && c.span.end === inv.span.end && c.text.startsWith(inv.name));
}

const plain = (s: Stdin): Stdin => (s.secret ? { ...s, secret: undefined } : s);

/** A secret variable (by its name, or assigned a secret earlier in the line) or a `$(…)` that prints one, in a word. */
function secretsIn(text: string, r: Runner): SecretMark[] {
  const out: SecretMark[] = [];
  for (const name of variablesIn(text)) {
    if (isSecretName(name) || r.sink.secretVars?.has(name)) out.push({ what: `$${name}`, service: serviceOf(name) });
  }
  return out;
}

function printedSecret(inv: Invocation, r: Runner): SecretMark | undefined {
  for (const a of inv.args) {
    const mark = r.sink.argSecrets?.get(a) ?? secretsIn(a.text, r)[0];
    if (mark) return mark;
  }
  return undefined;
}

/** `declare -p NAME`, `export -p NAME`: prints the named variables with their values. */
function declaredSecret(inv: Invocation): SecretMark | undefined {
  if (!inv.args.some((a) => /^-[a-zA-Z]*p/.test(a.text))) return undefined;
  const name = inv.args.find((a) => !a.text.startsWith("-") && isSecretName(a.text))?.text;
  return name ? { what: `$${name}`, service: serviceOf(name) } : undefined;
}

/** Does the sink read its standard input and send it (curl `-d @-`, `-T -`; a socket; a remote shell)? */
function sendsStdin(req: SinkRequest, texts: readonly string[]): boolean {
  if (req.kind === "raw" || req.kind === "remote-shell" || req.kind === "mail") return true;
  if (req.kind === "code-host") return texts.includes("-") || texts[0] === "gist";
  return texts.some((t, i) => /@-$/.test(t) || (t === "-" && /^(-T|--upload-file|--body-file|--post-file)$/.test(texts[i - 1] ?? "")));
}

function judgeSink(inv: Invocation, r: Runner, req: SinkRequest, input: SecretMark | undefined): void {
  const texts = inv.args.map((a) => a.text);
  const found: { mark: SecretMark; role: "auth" | "data" }[] = [];
  for (const w of req.words) for (const mark of secretsIn(w.text, r)) found.push({ mark, role: w.role });
  // Words built from a `$(…)` that prints a secret: the role of the request word they are in.
  for (const a of inv.args) {
    const mark = r.sink.argSecrets?.get(a);
    if (!mark) continue;
    const w = req.words.find((x) => a.text.includes(x.text) && /\$\(|`/.test(x.text)) ?? req.words.find((x) => x.text.includes(a.text));
    found.push({ mark, role: w?.role ?? "data" });
  }
  if (input && sendsStdin(req, texts)) found.push({ mark: input, role: "data" });
  const host = req.host;
  if (host && isLoopback(host)) return;
  for (const { mark, role } of found) {
    const to = host ?? "a host only known when the command runs";
    const service = mark.whole ? [] : (mark.service ?? []);
    let effect: RemoteEffect["effect"] | undefined;
    if (role === "data" || req.kind !== "http" && req.kind !== "git") effect = "exfiltrate";
    else if (!host || service.length === 0) effect = "send-secret";
    else if (!hostOfService(host, service)) effect = "exfiltrate";
    if (effect === undefined) continue;
    const how = role === "auth" ? "as the authentication" : "in the request";
    r.sink.remoteEffect({ effect, target: "remote-host", program: inv.name, resource: to, span: inv.span, via: `${mark.what} sent ${how} to ${to} by ${inv.name}` });
    return;
  }
}

/** Per language: the whole environment, one variable of it, printing, and network calls. */
const LANGUAGES: Record<string, { whole: RegExp; named: RegExp; print: RegExp; net: RegExp }> = {
  python: {
    whole: /\bos\.environ\b(?!\s*(\.get|\[|\.setdefault|\.pop|\.keys|\.__contains__))|\bos\.getenv\(\s*\)/,
    named: /\bos\.(?:environ\s*(?:\[\s*|\.get\(\s*)|getenv\(\s*)['"]([A-Z][A-Z0-9_]*)['"]/g,
    print: /\b(print|pprint|sys\.stdout\.write|json\.dump)\s*\(/,
    net: /\b(requests|httpx|urllib|urllib3|http\.client|aiohttp|socket|smtplib|ftplib|paramiko)\b/,
  },
  node: {
    whole: /\bprocess\.env\b(?!\s*[.[])|\bDeno\.env\.toObject\(|\bBun\.env\b(?!\s*[.[])/,
    named: /\b(?:process\.env|Bun\.env)(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\])|\bDeno\.env\.get\(\s*['"`]([A-Z][A-Z0-9_]*)/g,
    print: /\b(console\.(log|dir|info|error|table)|process\.stdout\.write)\s*\(/,
    net: /\bfetch\s*\(|\bhttps?\.(request|get)\b|\baxios\b|\bnet\.(connect|createConnection)\b|\bdgram\b|\bWebSocket\b|require\(\s*['"](https?|net|node:https?|node:net)['"]/,
  },
  ruby: {
    whole: /\bENV\b(?!\s*(\[|\.fetch|\.key\?|\.include\?|\.keys))/,
    named: /\bENV(?:\[\s*|\.fetch\(\s*)['"]([A-Z][A-Z0-9_]*)['"]/g,
    print: /\b(puts|print|pp|p)\b/,
    net: /\bNet::HTTP\b|open-uri|\bURI\.open\b|\bTCPSocket\b|\bHTTParty\b|\bFaraday\b/,
  },
  perl: {
    whole: /%ENV\b/,
    named: /\$ENV\{\s*['"]?([A-Z][A-Z0-9_]*)['"]?\s*\}/g,
    print: /\b(print|say|printf)\b/,
    net: /\bLWP\b|HTTP::Tiny|IO::Socket|Net::/,
  },
  php: {
    whole: /\bgetenv\(\s*\)|\$_ENV\b(?!\s*\[)|\$_SERVER\b(?!\s*\[)/,
    named: /\bgetenv\(\s*['"]([A-Z][A-Z0-9_]*)['"]|\$_ENV\[\s*['"]([A-Z][A-Z0-9_]*)['"]/g,
    print: /\b(echo|print|var_dump|print_r|var_export)\b/,
    net: /\bcurl_\w+\(|\bfsockopen\(|\bstream_socket_client\(|file_get_contents\(\s*['"]https?:/,
  },
};

/** The code an interpreter runs from its words or a here-document. */
function codeOf(inv: Invocation): string | undefined {
  const i = inv.args.findIndex((a) => /^(-c|-e|-E|-r|-p|--eval|--print)$/.test(a.text) || /^-[a-zA-Z]*[ce]$/.test(a.text));
  if (i >= 0) return inv.args[i + 1]?.value ?? inv.args[i + 1]?.text;
  if (inv.args.some((a) => a.text === "eval" || a.text === "-")) return inv.args.find((a, k) => k > 0 && !a.text.startsWith("-"))?.text;
  return inv.stdin.kind === "text" ? inv.stdin.code.text : undefined;
}

function interpreterSecrets(inv: Invocation, r: Runner, family: string): SecretMark | undefined {
  const lang = Object.prototype.hasOwnProperty.call(LANGUAGES, family) ? LANGUAGES[family] : undefined;
  const code = lang && codeOf(inv);
  if (!code) return undefined;
  // A process bomb: forking in a loop (issue 36, family 3).
  if (/\bfork\b/.test(code) && /\b(while|for|loop|until)\b/.test(code)) r.sink.remoteEffect({ effect: "destroy-all", target: "system", program: inv.name, resource: "every process slot", span: inv.span, via: `${inv.name} forking in a loop (a process bomb)` });
  // An HTTP DELETE to another host from the interpreter's own library (issue 36, family 5).
  const deleted = codeHttpDelete(code);
  if (deleted) r.sink.remoteEffect({ effect: "destroy", target: "hosted-service", program: inv.name, resource: deleted, span: inv.span, via: `${inv.name} HTTP DELETE to another host` });
  const whole = lang.whole.test(code);
  const names = [...code.matchAll(lang.named)].map((m) => m.slice(1).find((x) => x !== undefined)!).filter(isSecretName);
  if (!whole && names.length === 0) return undefined;
  const what = whole ? "the whole environment" : `$${names[0]}`;
  if (lang.net.test(code)) {
    const hosts = [...code.matchAll(/\bhttps?:\/\/([A-Za-z0-9.-]+)/g)].map((m) => m[1].toLowerCase());
    if (hosts.length > 0 && hosts.every(isLoopback)) return undefined;
    const service = whole ? [] : serviceOf(names[0]);
    const tied = !whole && hosts.length > 0 && hosts.every((h) => isLoopback(h) || hostOfService(h, service));
    if (tied) return undefined;
    const effect = whole || hosts.length > 0 ? "exfiltrate" : "send-secret";
    r.sink.remoteEffect({ effect, target: "remote-host", program: inv.name, resource: hosts[0] ?? "", span: inv.span, via: `${what} sent over the network by ${inv.name}` });
    return undefined;
  }
  const printsIt = lang.print.test(code) || /^(-p|--print)$/.test(inv.args[0]?.text ?? "");
  if (!printsIt) return undefined;
  // Only the value itself printed: its length or a test that it is set prints no secret.
  if (!whole && /\b(len|length|bool|size)\b|\bis not None\b|\?\s*['"]|!!/.test(code)) return undefined;
  return r.sink.show({ effect: "read-secret", target: "secrets", program: inv.name, resource: what, span: inv.span, via: `${inv.name} printing ${what}` }, { what, whole });
}

/** A pattern that looks for a secret: a secret-shaped name, or a token's known prefix. */
const SECRET_PATTERN = /^(sk-|sk_live|ghp_|gho_|github_pat_|glpat-|AKIA|xox[abpr]-|-----BEGIN)|(password|passwd|secret|api_?key|token|private_key|DATABASE_URL)/i;

/**
 * `grep -r API_KEY .`, `rg -uu SECRET`: a search for a secret's shape across the workspace or the
 * home folder reads the zero-access files in it and prints their matching lines (issue 36,
 * family 7: a filter that can match a secret). A search below a source folder does not.
 */
function secretSearch(inv: Invocation): string | undefined {
  const v = inv.args.map((a) => (known(a) ? a.value : undefined));
  const grep = /^(grep|egrep|fgrep)$/.test(inv.name) && v.some((x) => x !== undefined && /^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$/.test(x));
  const rg = /^(rg|ag)$/.test(inv.name) && v.some((x) => x !== undefined && /^(-uu+|--hidden|-\.|--no-ignore|-u)$/.test(x));
  if (!grep && !rg) return undefined;
  // Narrowed to files by name or type (`--include='*.ts'`, `-g`, `-t`): it cannot read a secret's file.
  if (v.some((x) => x !== undefined && /^(--include|-g|--glob|-t|--type)(=|$)/.test(x))) return undefined;
  const eIndex = v.findIndex((x) => x === "-e" || x === "--regexp");
  const words = v.filter((x, i) => x !== undefined && !x.startsWith("-") && !(i > 0 && /^(-e|--regexp|--exclude-dir|--include|--exclude|-g|--glob|-t|--type|-m|-A|-B|-C)$/.test(v[i - 1] ?? ""))) as string[];
  const pattern = eIndex >= 0 ? v[eIndex + 1] : words[0];
  if (pattern === undefined || !SECRET_PATTERN.test(pattern)) return undefined;
  const dirs = eIndex >= 0 ? words : words.slice(1);
  const whole = dirs.length === 0 ? rg : dirs.some((d) => d === "." || d === "./" || d === "~" || d === inv.scope.cwd || d === inv.scope.home);
  return whole ? `${pattern} across ${dirs[0] ?? "."}` : undefined;
}
