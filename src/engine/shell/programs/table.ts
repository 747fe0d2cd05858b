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
//     a rule written for that command judges it.
// Runner options that load environment files (`--env-file`) and container mounts are read for
// every program (see `genericEffects`).
import type { Access } from "../../types";
import { has, parseOptions, valuesOf, type OptionSpec } from "../options";
import type { Handler, Invocation, Runner } from "../runner";
import { known, syntheticArg, type Arg } from "../words";
import { CONTAINER_CLIS, shown, subArg } from "./common";
import { DEVICE_ROWS } from "./devices";

export interface EffectRow {
  /** Subcommand words after the program (`ruff format`, `gio trash`). */
  sub?: string[];
  spec?: OptionSpec;
  operands?: Access;
  recursive?: boolean;
  when?: string[];
  unless?: string[];
  optionEffects?: Record<string, Access>;
  noOperands?: "cwd";
  showAs?: string[];
}

const FORMATTER_UNLESS = ["check", "diff", "dry-run", "l", "list-different", "d"];

export const EFFECT_TABLE: Record<string, EffectRow[]> = {
  // Deleters that are not rm.
  rimraf: [{ operands: "delete", recursive: true, showAs: ["rm", "-rf"], spec: { longWithValue: ["glob"] } }],
  "del-cli": [{ operands: "delete", recursive: true, showAs: ["rm", "-rf"] }],
  "trash-put": [{ operands: "delete", recursive: true, showAs: ["rm", "-r"] }],
  trash: [{ operands: "delete", recursive: true, showAs: ["rm", "-r"] }],
  gio: [{ sub: ["trash"], operands: "delete", recursive: true, showAs: ["rm", "-r"] }, { sub: ["remove"], operands: "delete" }],
  // In-place rewriters: formatters and fixers.
  prettier: [{ operands: "write", recursive: true, when: ["write", "w"], spec: { longWithValue: ["config", "ignore-path", "plugin", "parser", "log-level", "cache-location"] } }],
  black: [{ operands: "write", recursive: true, unless: FORMATTER_UNLESS, spec: { shortWithValue: "lctS", longWithValue: ["line-length", "target-version", "config", "include", "exclude", "extend-exclude", "force-exclude", "stdin-filename", "workers", "required-version"] } }],
  ruff: [
    { sub: ["format"], operands: "write", recursive: true, unless: FORMATTER_UNLESS, noOperands: "cwd", spec: { longWithValue: ["config", "line-length", "target-version", "exclude", "extend-exclude", "stdin-filename"] } },
    { sub: ["check"], operands: "write", recursive: true, when: ["fix", "unsafe-fixes"], noOperands: "cwd", spec: { longWithValue: ["config", "select", "ignore", "extend-select", "exclude", "extend-exclude", "target-version", "output-format"] } },
  ],
  eslint: [{ operands: "write", recursive: true, when: ["fix", "fix-dry-run-never"], spec: { shortWithValue: "fco", longWithValue: ["config", "format", "output-file", "ext", "rule", "plugin", "parser", "ignore-path", "resolve-plugins-relative-to", "cache-location", "max-warnings"] }, optionEffects: { o: "write", "output-file": "write" } }],
  gofmt: [{ operands: "write", recursive: true, when: ["w"], spec: { shortWithValue: "r" } }],
  goimports: [{ operands: "write", recursive: true, when: ["w"], spec: { shortWithValue: "l" } }],
  rustfmt: [{ operands: "write", unless: ["check"], spec: { longWithValue: ["edition", "config-path", "config", "emit", "color"] } }],
  cargo: [{ sub: ["fmt"], unless: ["check"], noOperands: "cwd", operands: "write", recursive: true }],
  "clang-format": [{ operands: "write", when: ["i"], spec: { longWithValue: ["style", "assume-filename"] } }],
  autopep8: [{ operands: "write", recursive: true, when: ["i", "in-place"] }],
  isort: [{ operands: "write", recursive: true, unless: ["check-only", "c", "diff"], noOperands: "cwd" }],
  shfmt: [{ operands: "write", recursive: true, when: ["w", "write"] }],
  // terraform fmt rewrites only *.tf files: without operands its folder is not named.
  terraform: [{ sub: ["fmt"], operands: "write", recursive: true, unless: ["check"] }],
  biome: [{ sub: ["format"], operands: "write", recursive: true, when: ["write", "apply"] }, { sub: ["check"], operands: "write", recursive: true, when: ["write", "apply"] }, { sub: ["lint"], operands: "write", recursive: true, when: ["write", "apply"] }],
  // Downloads onto a path.
  curl: [{ spec: { shortWithValue: "oKTuHdXAeEbcDF", longWithValue: ["output", "config", "upload-file", "user", "header", "data", "request", "user-agent", "referer", "cert", "key", "cacert", "cookie", "cookie-jar", "dump-header", "form", "trace", "stderr"] }, optionEffects: { o: "write", output: "write", "cookie-jar": "write", c: "write", "dump-header": "write", D: "write", trace: "write", stderr: "write" } }],
  // Block devices and volumes (devices.ts).
  ...DEVICE_ROWS,
  wget: [{ spec: { shortWithValue: "OoaPe", longWithValue: ["output-document", "output-file", "append-output", "directory-prefix", "execute"] }, optionEffects: { O: "write", "output-document": "write", o: "write", "output-file": "write", a: "write", "append-output": "write", P: "write", "directory-prefix": "write" } }],
};

/** The handler for a program with table rows; `generic` is the unknown-program reading. */
export function tableHandler(rows: EffectRow[], generic: Handler): Handler {
  return (inv, r) => {
    const row = rows.find((x) => !x.sub || x.sub.every((w, i) => inv.args[i]?.value === w));
    if (!row) return generic(inv, r);
    const args = inv.args.slice(row.sub?.length ?? 0);
    const p = parseOptions(args, row.spec ?? {});
    const on = (!row.when || has(p, ...row.when)) && !(row.unless && has(p, ...row.unless));
    if (row.showAs && on) r.emitText([...row.showAs, ...p.operands.map(shown)].join(" "), inv.span);
    const result = generic(inv, r);
    const via = [inv.name, ...(row.sub ?? [])].join(" ");
    if (on && row.operands) {
      for (const a of p.operands) r.path(inv, a, row.operands, row.recursive ?? false, via);
      if (p.operands.length === 0 && row.noOperands === "cwd" && inv.scope.cwd !== undefined) r.sink.effect(inv.scope.cwd, row.operands, row.recursive ?? false, inv.span, via);
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
