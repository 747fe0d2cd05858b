// What the walker knows about the shell state at one point of a command line: the working
// directory (changed by an earlier `cd dir &&`), variables assigned earlier with static values,
// positional parameters of `sh -c CODE arg0 arg1`, and placeholders (`{}` of find -exec / xargs -I).
import type { Code } from "./code";

/** The value of a variable or placeholder, as far as it can be known without running anything. */
export type Sym =
  | { kind: "literal"; value: string; code?: Code }
  /** Some path at or below one of these absolute directories (what `find DIR` or `ls DIR` prints). */
  | { kind: "under"; dirs: string[]; named?: string }
  | { kind: "unknown" };

/** Where an array is kept among the variables (a name no variable can have). */
const ARRAY = "array ";

/** What every variable never assigned is (shared: a Sym is never modified). */
const UNKNOWN: Sym = Object.freeze({ kind: "unknown" });

export class Scope {
  constructor(
    /** Absolute; undefined once a `cd` went somewhere unknowable (`cd "$X"`). */
    public cwd: string | undefined,
    public readonly home: string,
    private readonly vars: Map<string, Sym> = new Map(),
    public placeholders: ReadonlyMap<string, Sym> | undefined = undefined,
  ) {}

  /** Subshells, pipeline elements and nested shells get a copy: their cd and assignments stay inside. */
  fork(): Scope {
    return new Scope(this.cwd, this.home, new Map(this.vars), this.placeholders);
  }

  /** A fresh shell (`bash -c`): environment-ish variables are inherited; positional ones and arrays are not. */
  child(positional: Sym[] = []): Scope {
    const vars = new Map<string, Sym>();
    for (const [k, v] of this.vars) if (!/^[0-9]+$/.test(k) && !k.startsWith(ARRAY)) vars.set(k, v);
    positional.forEach((v, i) => vars.set(String(i), v));
    return new Scope(this.cwd, this.home, vars, this.placeholders);
  }

  withPlaceholder(key: string, value: Sym): Scope {
    const s = this.fork();
    const p = new Map(this.placeholders ?? []);
    p.set(key, value);
    s.placeholders = p;
    return s;
  }

  /** Takes the working directory (and OLDPWD) a command run in `other`, a fork with its prefix assignments, moved to. */
  adoptDirectory(other: Scope): void {
    this.cwd = other.cwd;
    const old = other.vars.get("OLDPWD");
    if (old) this.vars.set("OLDPWD", old);
  }

  set(name: string, value: Sym): void {
    this.vars.set(name, value);
  }

  /** `name=(a b c)`: the elements, or undefined when one of them is only known at run time. */
  setArray(name: string, elements: string[] | undefined): void {
    this.vars.set(ARRAY + name, elements ? { kind: "literal", value: JSON.stringify(elements) } : UNKNOWN);
  }

  /** The elements of an array assigned earlier, when all are known. */
  getArray(name: string): string[] | undefined {
    const v = this.vars.get(ARRAY + name);
    return v?.kind === "literal" ? (JSON.parse(v.value) as string[]) : undefined;
  }

  /** Known variables; HOME and PWD are always known; anything else never assigned is unknown. */
  get(name: string): Sym {
    const v = this.vars.get(name);
    if (v) return v;
    if (name === "HOME") return { kind: "literal", value: this.home };
    if (name === "PWD" && this.cwd !== undefined) return { kind: "literal", value: this.cwd };
    return UNKNOWN;
  }
}
