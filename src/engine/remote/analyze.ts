// One invocation's words → what it does outside the working tree (RemoteEffect[]). Called by the
// shell dispatcher for every executed invocation, so wrappers, `bash -c`, xargs and `ssh HOST CMD`
// reach it as they reach the path effects. One Map lookup by program name; the fallback for CLIs
// outside the table only runs for programs the analysis does not otherwise understand.
import type { Span } from "../types";
import type { RemoteEffect, RemoteEffectKind, RemoteTarget } from "../shell/types";
import { EVERYDAY_VERB_PROGRAMS, REMOTE_TABLE, type RemoteProgram, type RemoteRow, type VerbFamily } from "./table";
import { httpEffect, MADE_PUBLIC } from "./http";
import { signalsEverything } from "./system";
import { mongoScriptDeletes } from "./mongo-script";

/** What the analyser needs of an invocation (a subset of the shell's Invocation). */
export interface RemoteWords {
  name: string;
  /** The arguments' values (undefined: only known at run time). */
  args: readonly (string | undefined)[];
  /** The arguments as written, unknown expansions kept (`$ES_URL/_all`): asked for only by the HTTP clients. */
  texts?: () => readonly string[];
  span: Span;
}

/** How many command words (non-option words) a subcommand may stand among. */
const COMMAND_WORDS = 6;
/** A row's words may start this far in (`restic -r REPO prune`, `aws --profile p ec2 …`). */
const ROW_START = 2;

const CLOUD_VERB = /^(delete|destroy|terminate|purge|remove|rm|rb|del|deprovision|decommission|rebuild|reimage|reinstall)$|^(rebuild|reimage|reinstall)-|^disable-backups?$|^backups?-(cancel|disable)$|^(delete|terminate|purge|destroy|remove)-|[:-](delete|destroy|purge|terminate|remove|disable|archive)$/;
const HOSTED_VERB = /^(delete|destroy|terminate|purge|remove|rm|del|archive|disable|cancel|reset|revoke|void|expire|deactivate)$|^(delete|purge|archive|disable|cancel|reset|revoke|remove)-|[:-](delete|destroy|purge|archive|disable|cancel|reset|remove)$/;
/** The fallback's verbs: a destroy that is not an everyday word (no `disable`, `cancel`, `reset`). */
const UNKNOWN_VERB = /^(delete|destroy|purge|remove|rm|del|wipe|erase|nuke|terminate)$/;
/** A group word before the verb: a plain word, not a file (`scripts/admin.ts delete` is a script's argument). */
const GROUP_WORD = /^[a-z][a-z0-9_-]*$/;

/** Word classes that move a cloud resource into another family. */
function targetOfWords(words: readonly string[], base: RemoteTarget): RemoteTarget {
  if (words.some((w) => /snapshot|backup|recovery-point/.test(w))) return "backups";
  if (words.some((w) => /secret|keyvault/.test(w))) return "secrets";
  if (words.some((w) => /^(s3|s3api|storage|bucket|buckets|r2)$/.test(w))) return "object-storage";
  return base;
}

interface Parsed {
  /** Non-option words with their argument index. */
  words: { value: string; at: number }[];
  args: readonly (string | undefined)[];
}

function parse(args: readonly (string | undefined)[]): Parsed {
  const words: Parsed["words"] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === undefined || a === "--") continue;
    if (a.startsWith("-") && a.length > 1) continue;
    words.push({ value: a, at: i });
  }
  return { words, args };
}

/** Is option `name` given (`--name`, `--name=v`, `-n`, `-n` inside a bundle `-rf`, single-dash long `-recurse`)? */
function hasOption(p: Parsed, name: string): boolean {
  return optionValue(p, name, false) !== undefined;
}

/** The value of option `name` (next word, `=v`, or `-nv` for a short name); "" when given without one. */
function optionValue(p: Parsed, name: string, wantValue = true): string | undefined {
  for (let i = 0; i < p.args.length; i++) {
    const a = p.args[i];
    if (a === undefined || !a.startsWith("-") || a === "--") continue;
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const key = eq < 0 ? body : body.slice(0, eq);
    if (key === name) return eq >= 0 ? body.slice(eq + 1) : wantValue ? (p.args[i + 1] ?? "") : "";
    if (name.length === 1 && !a.startsWith("--")) {
      if (a[1] === name && a.length > 2 && wantValue) return a.slice(2);
      if (!wantValue && /^-[A-Za-z]+$/.test(a) && a.includes(name)) return "";
    }
  }
  return undefined;
}

function optionMatches(p: Parsed, spec: string): boolean {
  const eq = spec.indexOf("=");
  if (eq < 0) return hasOption(p, spec);
  const v = optionValue(p, spec.slice(0, eq));
  if (v === undefined) return false;
  return spec
    .slice(eq + 1)
    .split("|")
    .some((want) => (want.startsWith("*") ? v.includes(want.replace(/^\*|\*$/g, "")) : v.startsWith(want)));
}

/** Where the row's words stand among the command words (-1: nowhere). */
function rowAt(p: Parsed, r: RemoteRow): number {
  const last = Math.min(ROW_START, p.words.length - r.sub.length);
  for (let s = 0; s <= last; s++) {
    if (r.sub.every((w, k) => w === "*" || w.split("|").includes(p.words[s + k].value))) return s;
  }
  return -1;
}

function fromRows(name: string, p: Parsed, rows: readonly RemoteRow[], span: Span, out: RemoteEffect[]): boolean {
  for (const r of rows) {
    const at = rowAt(p, r);
    if (at < 0) continue;
    if (r.when && !r.when.some((o) => optionMatches(p, o))) continue;
    if (r.operand && !r.operand.test(p.words[at + r.sub.length]?.value ?? "")) continue;
    if (r.match && !r.match.test(p.words.slice(at, at + r.sub.length).map((w) => w.value).join(" "))) continue;
    if (r.unless?.some((o) => optionMatches(p, o))) return true;
    const effect: RemoteEffectKind = r.all?.some((o) => hasOption(p, o)) ? "destroy-all" : r.effect;
    const words = r.sub[0] === "*" ? [] : p.words.slice(at, at + r.sub.length).map((w) => w.value);
    const resource = p.words[at + r.sub.length]?.value ?? "";
    out.push({ effect, target: r.target, program: name, resource, span, via: [name, ...words].join(" ") });
    return true;
  }
  return false;
}

/** A token-printing verb (token-printers.ts) of this invocation: the value it prints. */
export function tokenPrinted(inv: RemoteWords, rows: readonly RemoteRow[]): RemoteEffect | undefined {
  const out: RemoteEffect[] = [];
  fromRows(inv.name, parse(inv.args), rows, inv.span, out);
  return out.find((e) => e.effect === "read-secret");
}

/** Command groups that manage the CLI itself on this machine (`gcloud components remove`, `az extension remove`). */
const LOCAL_GROUPS = new Set(["components", "component", "extension", "extensions", "config", "configurations", "configure", "plugins", "plugin", "alias", "aliases", "profile", "profiles", "context", "contexts", "auth", "login", "logout", "cache", "completion", "autocomplete"]);

function fromVerbs(name: string, p: Parsed, family: VerbFamily, base: RemoteTarget, span: Span, out: RemoteEffect[], remoteGroups?: readonly string[]): void {
  const verb = family === "cloud" ? CLOUD_VERB : HOSTED_VERB;
  const words = p.words.slice(0, COMMAND_WORDS).map((w) => w.value);
  const i = words.findIndex((w) => verb.test(w));
  if (i < 0 || hasOption(p, "dry-run")) return;
  const path = words.slice(0, i + 1);
  if (path.some((w) => w.split(":").some((g) => LOCAL_GROUPS.has(g) && !remoteGroups?.includes(g)))) return;
  const target = targetOfWords(path, base);
  const total = hasOption(p, "all") || hasOption(p, "recursive") ? "destroy-all" : "destroy";
  out.push({ effect: total, target, program: name, resource: words[i + 1] ?? "", span, via: [name, ...path].join(" ") });
}

/** A CLI the table does not know: a destroy verb among its first words, aimed at a named resource. */
function fromUnknown(name: string, p: Parsed, span: Span, out: RemoteEffect[]): void {
  if (EVERYDAY_VERB_PROGRAMS.has(name) || !/^[a-z][a-z0-9_.-]*$/.test(name)) return;
  const w = p.words.map((x) => x.value);
  for (let i = 0; i < Math.min(2, w.length); i++) {
    if (!UNKNOWN_VERB.test(w[i])) {
      if (!GROUP_WORD.test(w[i])) return;
      continue;
    }
    const resource = w[i + 1] ?? (hasOption(p, "all") ? "--all" : undefined);
    if (resource === undefined || hasOption(p, "dry-run") || hasOption(p, "help") || hasOption(p, "h")) return;
    out.push({ effect: hasOption(p, "all") ? "destroy-all" : "destroy", target: "unknown-cli", program: name, resource, span, via: [name, ...w.slice(0, i + 1)].join(" ") });
    return;
  }
}

/**
 * The remote effects of one invocation. `understood`: the shell analysis has its own handler for
 * the program (its words are then never judged by the unknown-CLI fallback).
 */
export function remoteEffects(inv: RemoteWords, understood: boolean, out: RemoteEffect[]): void {
  const entry: RemoteProgram | undefined = REMOTE_TABLE.get(inv.name);
  if (entry === undefined) {
    if (!understood) fromUnknown(inv.name, parse(inv.args), inv.span, out);
    return;
  }
  const p = parse(inv.args);
  if (entry.special === "http" && entry.rows) codeHostApi(inv.name, p, inv.span, out);
  else if (entry.special === "http") {
    const e = httpEffect(inv.name, inv.args, inv.texts);
    if (e) out.push({ ...e, program: inv.name, span: inv.span });
  } else if (entry.special === "git") gitPush(p, inv.span, out);
  else if (entry.special === "copy") copyOnto(inv.name, p, inv.span, out);
  else if (entry.special === "rclone") rclone(p, inv.span, out);
  else if (entry.special === "mongo") {
    const d = mongoScriptDeletes(inv.args);
    if (d) out.push({ effect: "destroy-all", target: "data-service", program: inv.name, resource: "", span: inv.span, via: `${inv.name} --eval ${d.via}` });
  } else if (entry.special === "signal" && signalsEverything(inv.args)) out.push({ effect: "destroy-all", target: "system", program: inv.name, resource: "every process", span: inv.span, via: `${inv.name} of every process` });
  if (out.some((e) => e.span === inv.span)) return;
  if (entry.rows && fromRows(inv.name, p, entry.rows, inv.span, out)) return;
  if (entry.verbs) fromVerbs(inv.name, p, entry.verbs, entry.target ?? "cloud", inv.span, out, entry.remoteGroups);
}

/** `gh api -X DELETE repos/O/R`: the endpoint of the host's API; a repository (project) is all of it. */
function codeHostApi(name: string, p: Parsed, span: Span, out: RemoteEffect[]): void {
  if (p.words[0]?.value !== "api") return;
  const method = (optionValue(p, "X") ?? optionValue(p, "method") ?? "GET").toUpperCase();
  // `gh api -X PATCH repos/O/R -F private=false`: the repository made public (issue 36).
  if (method !== "DELETE" && p.args.some((a) => a !== undefined && MADE_PUBLIC.test(a))) {
    out.push({ effect: "overwrite", target: "code-host", program: name, resource: p.words[1]?.value ?? "", span, via: `${name} api made public` });
    return;
  }
  if (method !== "DELETE") return;
  const endpoint = p.words.find((w, i) => i > 0 && !/^[A-Z]+$/.test(w.value))?.value ?? "";
  const all = /^\/?(repos\/[^/]+\/[^/]+|projects\/[^/]+)\/?$/.test(endpoint);
  out.push({ effect: all ? "destroy-all" : "destroy", target: "code-host", program: name, resource: endpoint, span, via: `${name} api -X DELETE` });
}

/** `git push --delete origin br`, `git push origin :br`, `git push origin --delete tag v1`. */
function gitPush(p: Parsed, span: Span, out: RemoteEffect[]): void {
  const push = p.words.findIndex((w) => w.value === "push");
  if (push < 0 || push > 2) return;
  const rest = p.words.slice(push + 1).map((w) => w.value);
  // A dry run (`--dry-run`, `-n`) only reports what would be pushed.
  if (hasOption(p, "dry-run") || hasOption(p, "n")) return;
  // `--prune` (issue 36): every remote branch without a local one of the same name is deleted there.
  if (hasOption(p, "prune")) {
    out.push({ effect: "destroy", target: "code-host", program: "git", resource: "every remote branch without a local one", span, via: "git push --prune" });
    return;
  }
  const del = hasOption(p, "delete") || hasOption(p, "d");
  const refs = del ? rest.slice(1) : rest.slice(1).filter((r) => /^:[^:]+$/.test(r)).map((r) => r.slice(1));
  if (refs.length === 0) return;
  const resource = refs.filter((r) => r !== "tag").join(" ");
  out.push({ effect: "destroy", target: "code-host", program: "git", resource, span, via: "git push --delete" });
}

/** A `host:path` operand (not `C:/…`, not a URL-less local path). */
const REMOTE_OPERAND = /^(?:[^/\s:@]+@)?[^/\s:]+:/;
const isRemote = (v: string) => REMOTE_OPERAND.test(v) && !/^[A-Za-z]:[\\/]/.test(v) && !v.includes("://");

/**
 * `rsync --delete … host:dst`: deletes on another machine whatever the source lacks. (`scp … host:dst`
 * writes the named path there: files.ts judges it by the path rules, as `ssh HOST CMD`'s paths are.)
 */
function copyOnto(name: string, p: Parsed, span: Span, out: RemoteEffect[]): void {
  const ops = p.words.map((w) => w.value);
  const target = ops.length > 1 ? ops[ops.length - 1] : undefined;
  if (!target || !isRemote(target) || name === "scp") return;
  if (name === "rsync" && !p.args.some((a) => a !== undefined && /^--(delete|del$|remove-source-files)/.test(a))) return;
  if (name === "rsync" && (hasOption(p, "dry-run") || hasOption(p, "n"))) return;
  out.push({ effect: "overwrite", target: "remote-host", program: name, resource: target, span, via: name === "rsync" ? "rsync --delete onto another machine" : "scp onto another machine" });
}

/** rclone: purge/delete/rmdirs empty a remote; sync onto a remote deletes what the source lacks. */
function rclone(p: Parsed, span: Span, out: RemoteEffect[]): void {
  const w = p.words.map((x) => x.value);
  const verb = w[0];
  if (hasOption(p, "dry-run") || hasOption(p, "n")) return;
  if (verb === "purge" || verb === "delete" || verb === "rmdirs") out.push({ effect: "destroy-all", target: "object-storage", program: "rclone", resource: w[1] ?? "", span, via: `rclone ${verb}` });
  else if (verb === "deletefile" || verb === "rmdir") out.push({ effect: "destroy", target: "object-storage", program: "rclone", resource: w[1] ?? "", span, via: `rclone ${verb}` });
  else if ((verb === "sync" || verb === "move") && w[2] !== undefined && isRemote(w[2])) out.push({ effect: verb === "sync" ? "destroy" : "overwrite", target: "object-storage", program: "rclone", resource: w[2], span, via: `rclone ${verb} onto a remote` });
}
