// Network sinks (issue 36): programs that send data to another host, and where in their words the
// data goes. DATA: program → kind; for HTTP clients, option → role. A role is `auth` (a header
// that authenticates, a user:password, a URL's userinfo), or `data` (a query, a body, a form, an
// upload, a path, any other header); what a kind without roles sends is all data (a raw socket, a
// remote shell's command, a name looked up). secret-flow.ts decides what a secret in each means.

export type SinkKind = "http" | "raw" | "remote-shell" | "lookup" | "code-host" | "mail" | "git";

/** Programs that send their words or their input to another host. */
export const NETWORK_SINKS: Record<string, SinkKind> = {
  curl: "http", wget: "http", http: "http", https: "http", xh: "http", xhs: "http", curlie: "http", aria2c: "http", lwp: "http", "lwp-request": "http", POST: "http", GET: "http",
  nc: "raw", ncat: "raw", netcat: "raw", socat: "raw", telnet: "raw", openssl: "raw", cryptcat: "raw", "nc.openbsd": "raw", "nc.traditional": "raw",
  ssh: "remote-shell", scp: "remote-shell", sftp: "remote-shell", rsync: "remote-shell", mosh: "remote-shell",
  dig: "lookup", nslookup: "lookup", host: "lookup", drill: "lookup", ping: "lookup", ping6: "lookup", traceroute: "lookup", whois: "lookup", getent: "lookup",
  gh: "code-host", glab: "code-host", tea: "code-host", hub: "code-host",
  mail: "mail", mailx: "mail", sendmail: "mail", mutt: "mail", msmtp: "mail", swaks: "mail",
  git: "git",
};

/** Headers whose value authenticates the request (lower case). */
const AUTH_HEADERS = /^(authorization|proxy-authorization|x-api-key|api-key|apikey|x-auth-token|x-access-token|private-token|x-token|x-goog-api-key|x-figma-token|x-vault-token|x-github-token|x-gitlab-token|circle-token|dd-api-key|dd-application-key|x-dd-api-key|x-algolia-api-key|x-shopify-access-token|x-pagerduty-token|x-hasura-admin-secret|cookie|x-csrf-token|anthropic-api-key|openai-api-key|x-amz-security-token)$/i;

/** curl/wget/httpie options and the role of their value. */
const HTTP_OPTIONS: Record<string, "auth" | "data" | "header" | "skip"> = {
  "-H": "header", "--header": "header", "--proxy-header": "header",
  "-u": "auth", "--user": "auth", "--oauth2-bearer": "auth", "--password": "auth", "--http-password": "auth", "--http-user": "auth", "-b": "auth", "--cookie": "auth", "--proxy-user": "auth", "-a": "auth", "--auth": "auth",
  "-d": "data", "--data": "data", "--data-raw": "data", "--data-binary": "data", "--data-urlencode": "data", "--data-ascii": "data", "--json": "data", "-F": "data", "--form": "data", "--form-string": "data",
  "-T": "data", "--upload-file": "data", "--post-data": "data", "--body-data": "data", "--post-file": "data", "--body-file": "data", "-e": "data", "--referer": "data", "-A": "data", "--user-agent": "data", "--url-query": "data",
  "-X": "skip", "--request": "skip", "--method": "skip", "-o": "skip", "--output": "skip", "-O": "skip", "--output-document": "skip", "-w": "skip", "--write-out": "skip", "-m": "skip", "--max-time": "skip", "--connect-timeout": "skip", "--retry": "skip", "--cacert": "skip", "--cert": "skip", "--key": "skip", "-E": "skip", "-x": "skip", "--proxy": "skip", "--resolve": "skip", "--connect-to": "skip",
};

export interface SinkWord {
  /** The word as written (unknown expansions kept: `$GITHUB_TOKEN`). */
  text: string;
  role: "auth" | "data";
}

export interface SinkRequest {
  kind: SinkKind;
  /** The host the words go to; null: only known at run time; undefined: none named. */
  host?: string | null;
  words: SinkWord[];
}

const VAR = /\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([^)]*\)|`[^`]*`/g;

/** The host of a URL-ish word as written; null when the host itself is an expansion. */
function hostOf(text: string): string | null | undefined {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(?:([^/@\s]*)@)?([^/:?#\s]*)/i.exec(text);
  if (!m) return undefined;
  const host = m[3];
  if (host === "" ) return undefined;
  if (/[$`]/.test(host)) return null;
  if (!m[1] && !/\./.test(host) && host !== "localhost") return undefined;
  return host.toLowerCase();
}

/** A URL word: its userinfo authenticates; its path, query and fragment are data. */
function urlWords(text: string, out: SinkWord[]): void {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:([^/@\s]*)@)?([^/?#\s]*)(.*)$/i.exec(text);
  if (!m) return;
  if (m[1]) out.push({ text: m[1], role: "auth" });
  out.push({ text: m[2], role: "data" });
  if (m[3]) out.push({ text: m[3], role: "data" });
}

const URLISH = /^(?:[a-z][a-z0-9+.-]*:\/\/|(?:[^/\s@]+@)?(?:localhost|[A-Za-z0-9$_{}-]+(?:\.[A-Za-z0-9$_{}-]+)+)(?::\d+)?(?:[/?]|$))/i;

/** An HTTP client's words by role, and its host. */
function httpRequest(texts: readonly string[]): SinkRequest {
  const words: SinkWord[] = [];
  let host: string | null | undefined;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i];
    const eq = t.startsWith("--") ? t.indexOf("=") : -1;
    const opt = eq > 0 ? t.slice(0, eq) : t;
    const own = (k: string) => (Object.prototype.hasOwnProperty.call(HTTP_OPTIONS, k) ? HTTP_OPTIONS[k] : undefined);
    const role = own(opt) ?? (/^-[HdFTub]./.test(t) ? own(t.slice(0, 2)) : undefined);
    if (role !== undefined) {
      const value = eq > 0 ? t.slice(eq + 1) : /^-[HdFTub]./.test(t) && !t.startsWith("--") ? t.slice(2) : texts[++i];
      if (value === undefined || role === "skip") continue;
      if (role === "header") {
        const name = /^\s*([^:\s]+)\s*:/.exec(value)?.[1] ?? "";
        words.push({ text: value, role: AUTH_HEADERS.test(name) ? "auth" : "data" });
      } else words.push({ text: value, role });
      continue;
    }
    if (t.startsWith("-")) continue;
    // httpie/xh request items: `Header:value` a header, `k=v`/`k:=v` body, `k==v` query, `@file` upload.
    if (host !== undefined && !URLISH.test(t)) {
      const item = /^([A-Za-z0-9_-]+)(==|:=@|:=|=@|=|:|@)(.*)$/s.exec(t);
      if (item && item[2] === ":") words.push({ text: item[3], role: AUTH_HEADERS.test(item[1]) ? "auth" : "data" });
      else words.push({ text: t, role: "data" });
      continue;
    }
    if (/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(t)) continue;
    if (host === undefined && (URLISH.test(t) || /^\$\{?[A-Za-z_]/.test(t))) {
      host = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/.test(t) ? null : hostOf(t);
      urlWords(t, words);
      continue;
    }
    words.push({ text: t, role: "data" });
  }
  return { kind: "http", host, words };
}

/** `git push https://x:$TOKEN@github.com/o/r`, `git remote add o URL`, `git clone URL`: the URL's userinfo authenticates. */
function gitRequest(texts: readonly string[]): SinkRequest | undefined {
  const url = texts.find((t) => /^[a-z]+:\/\//i.test(t) || /^[^\s/]+@[^\s/:]+:/.test(t));
  if (url === undefined) return undefined;
  const words: SinkWord[] = [];
  urlWords(url, words);
  return { kind: "git", host: hostOf(url), words };
}

/** The request a network program makes (undefined: not a network sink, or nothing sent). */
export function sinkRequest(name: string, texts: readonly string[]): SinkRequest | undefined {
  const kind = Object.prototype.hasOwnProperty.call(NETWORK_SINKS, name) ? NETWORK_SINKS[name] : undefined;
  if (kind === undefined) return undefined;
  if (kind === "http") return httpRequest(texts);
  if (kind === "git") return gitRequest(texts);
  // gh/glab: storing a secret in the code host's own secret store is its use.
  if (kind === "code-host" && /^(secret|variable)$/.test(texts[0] ?? "") && texts[1] === "set") return undefined;
  if (kind === "code-host" && texts[0] === "auth") return undefined;
  const host = texts.map((t) => hostOf(t.replace(/^[^@\s]*@/, ""))).find((h) => h !== undefined);
  return { kind, host, words: texts.map((t) => ({ text: t, role: "data" })) };
}

/** The variables a word refers to (`$A`, `${B}`, `${C:-x}`), but not its length (`${#A}`) or a test that it is set (`${A:+set}`). */
export function variablesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$(?:\{(#?)([A-Za-z_][A-Za-z0-9_]*)([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    if (m[1] === "#" || /^:?\+/.test(m[3] ?? "")) continue;
    out.push(m[2] ?? m[4]);
  }
  return out;
}

export { VAR as EXPANSION };
