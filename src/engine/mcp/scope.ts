// How much a destroying MCP tool reaches, read from its arguments:
//   total    — everything: an empty filter, `*`/`_all`, `all: true`, a name that says so (flushall)
//   filtered — some records: a non-empty filter or WHERE, a list of ids; or files (the path rules judge those)
//   named    — one named resource (a namespace, a repository, a collection), or nothing that narrows it
import { toolWords } from "./name";
import { noEffectMcpTool } from "./no-effect";
import type { McpArg } from "./arguments";

export type DestroyScope = "total" | "filtered" | "named";

/** Keys whose value selects the records a delete reaches. */
const FILTER_KEYS = new Set(["filter", "filters", "where", "selector", "query", "conditions", "condition", "criteria", "match", "predicate", "labelselector", "fieldselector"]);
/** Keys whose list names the records a delete reaches. */
const LIST_KEYS = /^(ids|keys|names|items|documents|docs|records|rows|uids|uuids|objects|resources|entries|messages|files|paths)$/;
/** A target that stands for everything. */
const EVERYTHING = /^(\*|%|_all|all|\.\*|\*\.\*|\/\*)$/i;
/** Words after a destroy verb that make the name total (`flushall`, `delete_all`, `drop_everything`). */
const TOTAL_WORDS = /^(all|everything|flushall|flushdb|deleteall|dropall|purgeall|removeall|wipe|wipeall|truncate)$/;

const norm = (k: string) => k.toLowerCase().replace(/[_-]/g, "");
const empty = (v: unknown) => v === "" || (typeof v === "object" && v !== null && Object.keys(v).length === 0);

/** Keys that place the call's paths in a remote repository or bucket, not on this machine. */
const REMOTE_PLACE_KEYS = new Set(["repo", "repository", "repositoryname", "owner", "project", "projectid", "bucket", "container", "remote"]);

export function destroyScope(tool: string, input: unknown, args: readonly McpArg[]): DestroyScope {
  // A memory's entities, a browser's page: the tool deletes its own notes, no resource of anyone's.
  if (noEffectMcpTool(tool)) return "filtered";
  if (toolWords(tool).some((w) => TOTAL_WORDS.test(w))) return "total";
  const record = typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  let filtered = false;
  for (const [key, v] of Object.entries(record)) {
    const k = norm(key);
    if (v === true && (k === "all" || k === "allkeys" || k === "everything" || k === "deleteall")) return "total";
    if (typeof v === "string" && EVERYTHING.test(v.trim())) return "total";
    if (FILTER_KEYS.has(k)) {
      if (empty(v) || v === null) return "total";
      filtered = true;
    } else if (Array.isArray(v) && v.length > 0 && LIST_KEYS.test(k)) {
      if (v.some((x) => typeof x === "string" && EVERYTHING.test(x.trim()))) return "total";
      filtered = true;
    }
  }
  // A many-records delete without any filter (`delete_many {collection}`): a filter left out is an
  // empty filter, every record (issue 36).
  if (!filtered && toolWords(tool).some((w) => /^(many|bulk|batch|multiple)$/.test(w)) && !Object.keys(record).some((k) => FILTER_KEYS.has(norm(k)) || LIST_KEYS.test(norm(k)))) return "total";
  // One item named by its key or id (`delete {key}`, `kubectl_delete {resourceType: pod, name}`):
  // as everyday as its Bash form, unless the item holds data (a namespace, a table, a bucket…).
  if (!filtered && singleItem(tool, record)) filtered = true;
  // Files only: the path rules judge them as they judge rm.
  // Files in a remote repository (`delete_file {owner, repo, path}`) are not; they name what goes there.
  const remote = Object.keys(record).some((k) => REMOTE_PLACE_KEYS.has(norm(k)));
  if (!filtered && !remote && args.length > 0 && args.every((a) => a.kind === "path")) filtered = true;
  // One named file of a remote repository deleted on a work branch (`delete_file {owner, repo,
  // path, branch: docs/cleanup}`) is a commit history keeps, reviewed before it lands: as
  // everyday as `git rm F && git push` to that branch (issue 36, family 10).
  if (!filtered && remote && oneRepositoryFile(tool, record)) filtered = true;
  return filtered ? "filtered" : "named";
}

/** Resources whose deletion takes the data in them (the Bash forms ask or refuse these too). */
const HOLDS_DATA = /^(helm|charts?|releases?|namespaces?|ns|databases?|db|schemas?|tables?|collections?|indexe?s?|indices|buckets?|repositor(y|ies)|repos?|projects?|volumes?|pvc|pv|persistentvolumes?|persistentvolumeclaims?|crds?|customresourcedefinitions?|keyspaces?|clusters?|instances?|deployments?|statefulsets?|services?|topics?|queues?|streams?|stacks?|zones?|domains?|secrets?|accounts?|organi[sz]ations?|orgs?|teams?|workspaces?|environments?|apps?|applications?|sites?)$/i;
/** Keys that name one item: a key of a key-value store, or a resource's name beside its kind. */
const ITEM_KEYS = /^(key|name|podname|pod|resourcename|id|containerid|container|containername)$/;
/** Things the Bash form deletes as everyday work: a container, a pod, a process, a cache key. */
const RECREATED = /^(container|containers|pod|pods|process|processes|job|jobs|key|keys|cache|session|sessions|image|images|network|networks)$/;
/** Keys that say which kind of resource. */
const KIND_KEYS = /^(resourcetype|kind|type|resource|resourcekind)$/;

function singleItem(tool: string, record: Record<string, unknown>): boolean {
  const words = toolWords(tool);
  if (words.some((w) => HOLDS_DATA.test(w))) return false;
  const kind = Object.entries(record).find(([k]) => KIND_KEYS.test(norm(k)))?.[1];
  if (typeof kind === "string" && HOLDS_DATA.test(kind.trim())) return false;
  if (!words.some((w) => /^(delete|del|remove|rm|unlink)$/.test(w))) return false;
  const items = Object.entries(record).filter(([k, v]) => ITEM_KEYS.test(norm(k)) && (typeof v === "string" || typeof v === "number") && (norm(k) === "key" || typeof kind === "string" || words.some((w) => RECREATED.test(w))));
  return items.length > 0 && !Object.keys(record).some((k) => REMOTE_PLACE_KEYS.has(norm(k)) && !/^container/.test(norm(k)));
}

/** Keys that name one file by its path. */
const FILE_KEYS = /^(path|filepath|file|filename)$/;

/** A delete of one file (by a literal path, no glob, not a folder's root) named by its tool as a file's. */
function oneRepositoryFile(tool: string, record: Record<string, unknown>): boolean {
  const words = toolWords(tool);
  if (!words.includes("file") || words.some((w) => HOLDS_DATA.test(w))) return false;
  const paths = Object.entries(record).filter(([k]) => FILE_KEYS.test(norm(k)));
  const branch = Object.entries(record).find(([k]) => norm(k) === "branch")?.[1];
  // On a work branch the commit waits for its review; on the default branch (named, or left out) it is published.
  if (typeof branch !== "string" || PUBLISHED_BRANCH.test(branch.trim())) return false;
  return paths.length === 1 && typeof paths[0][1] === "string" && /^[^*?[\]{}]*[^*?[\]{}/.]$/.test(paths[0][1].trim()) && !Object.keys(record).some((k) => LIST_KEYS.test(norm(k)));
}

/** Branches that are the published line of a repository: a commit there is not reviewed first. */
const PUBLISHED_BRANCH = /^(refs\/heads\/)?(main|master|trunk|develop|development|default|production|prod|stable|live|gh-pages|release(s)?([/-].*)?)$/i;
