// HTTP clients (curl, wget, httpie, xh) against a data service's admin API: the method and the
// URL's shape (port, path) say what is destroyed, wherever the service runs (loopback included).
// A DELETE to anything else (your own app on localhost:3000, a REST API) is everyday work.
import type { RemoteEffect } from "../shell/types";

/** An admin API recognised by its port or its path, and what a DELETE there removes. */
interface Service {
  ports?: number[];
  /** Host names that say what the service is. */
  host?: RegExp;
  /** A path the API's deletes take (required where the port alone is too common). */
  path?: RegExp;
  /** The resource a DELETE removes is total when the URL matches this. */
  all?: (path: string, query: string) => boolean;
  what: string;
  target: RemoteEffect["target"];
  /** A path only this API has: enough where the host is a variable (`$ES_URL/_all`). */
  shape?: RegExp;
}

const SERVICES: Service[] = [
  // Elasticsearch / OpenSearch: an index; `_all`, a wildcard or the root is every index.
  { ports: [9200, 9243, 9300], host: /elastic|opensearch|(^|\.)es\d*(\.|$)/, shape: /^\/(_all|_data_stream\/|_index_template\/)/, what: "a search index", target: "data-service", all: (p) => /^\/(_all|[^/]*\*[^/]*)?\/?$/.test(p) || p.split("/")[1]?.includes(",") === true },
  // Consul's key/value store: `?recurse` deletes the whole prefix.
  { ports: [8500], path: /^\/v1\/kv\//, what: "Consul keys", target: "data-service", all: (_p, q) => /(^|&)recurse(=|&|$)/.test(q) },
  { ports: [2379], path: /^\/v3\/kv\/deleterange/, what: "etcd keys", target: "data-service" },
  { ports: [15672], path: /^\/api\//, what: "a RabbitMQ queue, exchange or vhost", target: "data-service" },
  { ports: [5984], what: "a CouchDB database or document", target: "data-service" },
  { ports: [6333], path: /^\/collections\//, what: "a Qdrant collection", target: "data-service" },
  { ports: [7700], path: /^\/indexes/, what: "a Meilisearch index", target: "data-service" },
  { ports: [8108], path: /^\/collections\//, what: "a Typesense collection", target: "data-service" },
  { ports: [8083], path: /^\/connectors\//, what: "a Kafka Connect connector", target: "data-service" },
  { ports: [8081], path: /^\/subjects\//, what: "a schema registry subject", target: "data-service" },
  { ports: [8086], path: /^\/api\/v2\/(buckets|orgs)\//, what: "an InfluxDB bucket", target: "data-service" },
  { path: /^\/api\/v[12]\/collections\//, what: "a vector store collection", target: "data-service" },
  { path: /^\/v1\/schema\//, what: "a Weaviate class", target: "data-service" },
  { ports: [8200], path: /^\/v1\//, what: "a Vault secret", target: "secrets" },
  // Code hosts' REST APIs: a repository (or project) itself is everything in it.
  { host: /^api\.github\.com$|^[^/]*\/api\/v3$/, path: /^\/repos\//, what: "a GitHub resource", target: "code-host", all: (p) => /^\/repos\/[^/]+\/[^/]+\/?$/.test(p) },
  { host: /gitlab/, path: /^\/api\/v4\//, what: "a GitLab resource", target: "code-host", all: (p) => /^\/api\/v4\/projects\/[^/]+\/?$/.test(p) },
];

const URLISH = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^/\s@:]+(?::[^/\s@]*)?@)?(localhost|\[[0-9a-f:]+\]|[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?::\d+)?(?:[/?].*)?$/i;

/** Method and URL of an HTTP client's invocation. */
function request(name: string, args: readonly (string | undefined)[]): { method: string; url?: string } {
  let method = "GET";
  let url: string | undefined;
  const valueOpts = new Set(["-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-u", "--user", "-o", "--output", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-F", "--form", "--json"]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === undefined) continue;
    // `-sX DELETE`: a bundle of short flags ending in X takes the method.
    const m = /^(?:-[a-zA-Z]*X|--request|--method)(?:=?(.+))?$/.exec(a);
    if (m) {
      method = (m[1] ?? args[++i] ?? "").toUpperCase();
      continue;
    }
    if (valueOpts.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    // httpie / xh: `http DELETE url`.
    if (name !== "curl" && name !== "wget" && url === undefined && /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|PURGE)$/i.test(a)) {
      method = a.toUpperCase();
      continue;
    }
    // A URL with a scheme may name a one-label host (`http://es:9200`, a compose service).
    if (url === undefined && (URLISH.test(a) || /^https?:\/\/[A-Za-z0-9_-]+(?::\d+)?(?:[/?]|$)/i.test(a))) url = a;
  }
  return { method, url };
}

/** The path with its %-escapes decoded (`%2F` → `/`); as written when they are not valid UTF-8. */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A URL whose host is a variable (`$ES_URL/_all`, `${API}/collections/x`): its path as written. */
const VARIABLE_HOST = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?(\/[^\s?#]*)(?:\?(\S*))?$/;

/** The service whose path alone names it, for a DELETE to a URL whose host is a variable. */
function byPathAlone(name: string, args: readonly (string | undefined)[], texts: () => readonly string[]): Omit<RemoteEffect, "program" | "span"> | undefined {
  const { method } = request(name, args);
  const written = texts().find((t, i) => args[i] === undefined && VARIABLE_HOST.test(t));
  if (written === undefined) return undefined;
  const [, rawPath, query = ""] = VARIABLE_HOST.exec(written)!;
  const path = decoded(rawPath);
  if (/\/_delete_by_query\b/.test(path)) return { effect: "destroy-all", target: "data-service", resource: written, via: `${name} _delete_by_query` };
  if (method !== "DELETE") return undefined;
  for (const s of SERVICES) {
    const own = s.shape ?? (s.ports || s.host ? undefined : s.path);
    if (!own?.test(path)) continue;
    return { effect: s.all?.(path, query) ? "destroy-all" : "destroy", target: s.target, resource: written, via: `${name} -X ${method} on ${s.what}` };
  }
  return undefined;
}

export function httpEffect(name: string, args: readonly (string | undefined)[], texts?: () => readonly string[]): Omit<RemoteEffect, "program" | "span"> | undefined {
  let { method } = request(name, args);
  const { url } = request(name, args);
  if (!url) return texts ? byPathAlone(name, args, texts) : undefined;
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    return undefined;
  }
  const path = decoded(u.pathname);
  const query = u.search.replace(/^\?/, "");
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  const via = `${name} -X ${method}`;
  // Elasticsearch's delete-by-query is a POST: every matching document goes.
  if (/\/_delete_by_query\b/.test(path)) return { effect: "destroy-all", target: "data-service", resource: url, via: `${name} _delete_by_query` };
  if (method === "PURGE") method = "DELETE";
  // A repository made public through the code host's API (issue 36): everyone can read it from then on.
  if (/^(PATCH|PUT|POST)$/.test(method) && (/(^|[?&])visibility=public\b/.test(query) || args.some((a) => a !== undefined && MADE_PUBLIC.test(a))) && /github|gitlab|api\/v[34]/.test(url)) return { effect: "overwrite", target: "code-host", resource: url, via: `${name} -X ${method} visibility=public` };
  if (method !== "DELETE") return undefined;
  for (const s of SERVICES) {
    const byPort = s.ports?.includes(port) ?? false;
    const byHost = s.host?.test(u.hostname) ?? false;
    if (!byPort && !byHost && !(s.path && !s.ports && !s.host)) continue;
    if (s.path && !s.path.test(path)) continue;
    const all = s.all?.(path, query) ?? false;
    return { effect: all ? "destroy-all" : "destroy", target: s.target, resource: url, via: `${via} on ${s.what}` };
  }
  // Any other host (issue 36, family 5): a resource of a service that is not this machine.
  if (!LOOPBACK.test(u.hostname)) return { effect: "destroy", target: "hosted-service", resource: url, via: `${via} to another host` };
  return undefined;
}

/** A request body or field that makes a repository public. */
export const MADE_PUBLIC = /"visibility"\s*:\s*"public"|"private"\s*:\s*false|^(visibility=public|private=false)$/;

/** This machine and the names a development stack gives it. */
const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\]|::1|0\.0\.0\.0|host\.docker\.internal|[^.]+|.*\.(localhost|local|test|internal))$/i;

/** An interpreter's HTTP delete (`requests.delete(URL)`, `fetch(URL, {method: "DELETE"})`) to a URL of another host. */
export function codeHttpDelete(code: string): string | undefined {
  if (!/\.delete\s*\(|method\s*[:=]\s*['"](DELETE|PURGE)['"]|Net::HTTP::Delete|->delete\(|\bDELETE\b/.test(code)) return undefined;
  const url = /\bhttps?:\/\/([^/'"\s:]+)[^'"\s]*/.exec(code);
  return url && !LOOPBACK.test(url[1]) ? url[0] : undefined;
}
