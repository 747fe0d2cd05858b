// The rules in force for one workspace folder. Reads the rules file, keeps the last good rule
// set when the file breaks (across restarts too, through a saved copy), falls back to the
// embedded defaults when there is no file, and notices edits before the next decision.
import * as fs from "node:fs";
import * as path from "node:path";
import { EventEmitter } from "node:events";
import { parseRules } from "../engine/rules/parse";
import { defaultRules } from "../engine/rules/defaults";
import { policyOnly } from "../engine/rules/layers";
import type { Diagnostic, PathRule, RuleSet } from "../engine/types";
import { loadLayered, managedRulesFile, userRulesFile, withGuardOwnPaths, type LayeredResult, type LayerInfo, type WorkspaceTrust } from "../core/layer-files";
import { FileWatch } from "./file-watch";
import { workspaceStateDir, writeFileAtomic } from "./state-dir";

export const DEFAULT_RULES_PATH = ".pi/damage-control-rules.yaml";

export interface RulesState {
  folder: string;
  /** Absolute path of the rules file (which may not exist). */
  file: string;
  /** Where the rules in force came from. */
  source: "file" | "default" | "last-good";
  rules: RuleSet;
  /** Diagnostics of the file as it is on disk now. */
  diagnostics: Diagnostic[];
  /** The file on disk has errors: the rules in force are the last good ones (or the defaults). */
  broken: boolean;
  /** When the rules in force were (re)loaded. */
  loadedAt: number;
  /** The layers merged into `rules`, strongest first (absent for a `--rules FILE` policy). */
  layers?: LayerInfo[];
  /** The workspace file removes or loosens something that is not in force until the user approves it. */
  pending?: LayeredResult["pending"];
  /** `--rules FILE`: that file is the whole policy (no floor, no user or managed layer). */
  policy?: boolean;
}

export interface RulesStoreOptions {
  /** The rules file is the whole policy (`serve --rules FILE`). */
  policy?: boolean;
  /** How far a workspace file that loosens is trusted (default: additions only). */
  trust?: WorkspaceTrust;
  env?: NodeJS.ProcessEnv;
}

interface Stamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

export class RulesStore extends EventEmitter {
  private state!: RulesState;
  private stamp: Stamp | undefined;
  /** While watched: the files' folders under fs.watch, and the generation the rules in force were checked at. */
  private watcher: FileWatch | undefined;
  private checkedAt = -1;
  private debounce: NodeJS.Timeout | undefined;

  constructor(
    readonly folder: string,
    rulesPath: string = DEFAULT_RULES_PATH,
    private readonly options: RulesStoreOptions = {},
  ) {
    super();
    this.file = path.resolve(folder, rulesPath);
    const env = options.env ?? process.env;
    this.layerFiles = options.policy ? [] : [userRulesFile(env), managedRulesFile(env)];
    this.load();
  }

  readonly file: string;
  /** The user and managed rules files: an edit of either reloads too. */
  private readonly layerFiles: string[];
  private layerStamps: (Stamp | undefined)[] = [];

  /**
   * The rules in force. Watched (watch()): the files are stat'ed only after the watcher saw an
   * event for one of them, so a decision costs one integer comparison. Unwatched (a one-off CLI
   * check, pi's local guard), or where the folders cannot be watched: a few stats per call.
   */
  current(): RulesState {
    const w = this.watcher;
    if (w && !w.polling) {
      if (w.generation === this.checkedAt) return this.state;
      this.checkedAt = w.generation;
    }
    if (!sameStamp(this.stamp, statOf(this.file)) || this.layerFiles.some((f, i) => !sameStamp(this.layerStamps[i], statOf(f)))) this.load();
    return this.state;
  }

  /** Reloads now (after an approval was recorded or revoked). */
  reload(): RulesState {
    this.load();
    return this.state;
  }

  /**
   * Watch the rules file and the layer files: an edit reloads at once (the UI hears of it even
   * when no tool call comes), and decisions stop stat'ing the files.
   */
  watch(): void {
    if (this.watcher) return;
    this.watcher = new FileWatch([this.file, ...this.layerFiles], () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.current(), 50);
    });
    // Anything that happened before the watchers were in place is caught by one full check.
    this.checkedAt = -1;
  }

  unwatch(): void {
    clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private load(): void {
    const stamp = statOf(this.file);
    this.stamp = stamp;
    this.layerStamps = this.layerFiles.map(statOf);
    this.text = undefined;
    const previous = this.state;
    let next: RulesState;
    if (!stamp) {
      next = this.make("default", defaultRules(), [], false);
    } else {
      let text: string;
      try {
        text = fs.readFileSync(this.file, "utf8");
      } catch (e) {
        const d: Diagnostic = { severity: "error", code: "yaml-syntax", message: `Cannot read the rules file: ${(e as Error).message}`, range: zero };
        next = this.keepLastGood(previous, [d]);
        return this.publish(next);
      }
      const parsed = parseRules(text);
      if (parsed.ok) {
        this.text = text;
        next = this.make("file", parsed.rules, parsed.diagnostics, false);
        this.saveLastGood(text);
      } else {
        next = this.keepLastGood(previous, parsed.diagnostics);
      }
    }
    this.publish(next);
  }

  private publish(next: RulesState): void {
    this.state = next;
    this.emit("change", next);
  }

  /**
   * A broken file never leaves the folder unprotected: the last good rules of this session stay
   * in force, else the saved copy from an earlier one, else the defaults.
   */
  private keepLastGood(previous: RulesState | undefined, diagnostics: Diagnostic[]): RulesState {
    if (previous && previous.source !== "default") {
      return { ...previous, diagnostics, broken: true };
    }
    const saved = this.readLastGood();
    if (saved) return this.make("last-good", saved, diagnostics, true);
    return this.make("default", defaultRules(), diagnostics, true);
  }

  /** The text of the workspace file in force (for approvals), when it is the file on disk. */
  private text: string | undefined;

  /**
   * The rules in force from the workspace file's rules (or the defaults when there is none):
   * the layers merged, or that file alone for a `--rules FILE` policy. The guard's own paths on top.
   */
  private make(source: RulesState["source"], rules: RuleSet, diagnostics: Diagnostic[], broken: boolean): RulesState {
    const env = this.options.env ?? process.env;
    const base = { folder: this.folder, file: this.file, source, diagnostics, broken, loadedAt: Date.now() };
    if (this.options.policy) {
      return { ...base, policy: true, rules: withGuardOwnPaths(withGuardPaths(policyOnly(rules), this.folder, this.file), this.folder, env) };
    }
    // A last-good copy is no content the user can approve: it adds only, unless the workspace is trusted outright.
    const workspace = source === "default" ? undefined : { file: this.file, rules, text: this.text ?? "" };
    const trust: WorkspaceTrust = this.options.trust ?? { kind: "never" };
    const layered = loadLayered({ workspace, trust: source === "last-good" && trust.kind === "approved" ? { kind: "never" } : trust, env });
    const all = withGuardOwnPaths(withGuardPaths(layered.rules, this.folder, this.file), this.folder, env);
    return { ...base, rules: all, layers: layered.layers, ...(layered.pending && { pending: layered.pending }) };
  }

  private lastGoodFile(): string {
    return path.join(this.folder, ".damage-control", "last-good-rules.yaml");
  }

  private saveLastGood(text: string): void {
    try {
      workspaceStateDir(this.folder);
      writeFileAtomic(this.lastGoodFile(), text, 0o600);
    } catch {
      /* a read-only folder: the in-memory copy still holds for this session */
    }
  }

  private readLastGood(): RuleSet | undefined {
    try {
      const parsed = parseRules(fs.readFileSync(this.lastGoodFile(), "utf8"));
      return parsed.ok ? parsed.rules : undefined;
    } catch {
      return undefined;
    }
  }
}

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * The guard protects itself whatever the file says: the rules file and Damage Control's own
 * state folder are read-only for the agent. These implicit entries are not shown as user rules.
 */
export function withGuardPaths(rules: RuleSet, folder: string, file: string): RuleSet {
  const implicit: PathRule[] = [
    { kind: "readOnly", path: file, implicit: true },
    { kind: "readOnly", path: path.join(folder, ".damage-control") + "/", implicit: true },
  ];
  return { ...rules, readOnlyPaths: [...rules.readOnlyPaths, ...implicit] };
}

function statOf(file: string): Stamp | undefined {
  try {
    const s = fs.statSync(file);
    return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
  } catch {
    return undefined;
  }
}

function sameStamp(a: Stamp | undefined, b: Stamp | undefined): boolean {
  if (!a || !b) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

/** `<dir>/.pi/damage-control-rules.yaml` in cwd or the nearest folder above it that has one. */
export function findRulesFile(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEFAULT_RULES_PATH);
    if (fs.existsSync(candidate)) return candidate;
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** The folder a rules file belongs to: the parent of its .pi/ folder. */
export function folderOfRulesFile(file: string): string {
  return path.dirname(path.dirname(file));
}
