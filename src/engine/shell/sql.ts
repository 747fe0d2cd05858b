// SQL as the patterns see it. SQL is case-insensitive and a statement need not end with `;`, so
// each statement is presented in one normalized form:
//   - comments removed, whitespace collapsed to single spaces;
//   - keywords (unquoted words in KEYWORDS) upper-cased; identifiers and string literals kept;
//   - one statement per executed command, always ending in `;` (`delete from t` → `DELETE FROM t;`).
// Variants: schema-qualified and quoted identifiers unqualified/unquoted (`"main"."users"` → `users`),
// so `\bDELETE\s+FROM\s+\w+\s*;` sees every spelling of "delete everything from a table".
import { sliceCode, spanIn, type Code } from "./code";
import type { Span } from "../types";

const KEYWORDS = new Set(
  ("select from where delete drop table truncate insert into update set values create alter index view database schema " +
    "if exists not null and or in is like join on as limit order by group having union all distinct returning " +
    "begin commit rollback transaction pragma attach detach vacuum grant revoke cascade restrict temporary temp " +
    "replace with only using add column rename to primary key foreign references default unique check constraint trigger " +
    "function procedure execute exec call merge upsert conflict do nothing")
    .split(" "),
);

export interface SqlStatement {
  text: string;
  variants: string[];
  span: Span;
}

interface Token {
  kind: "word" | "string" | "quoted" | "punct" | "space";
  text: string;
  start: number;
}

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const start = i;
    if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
      out.push({ kind: "space", text: " ", start });
    } else if (c === "/" && sql[i + 1] === "*") {
      const e = sql.indexOf("*/", i + 2);
      i = e < 0 ? sql.length : e + 2;
      out.push({ kind: "space", text: " ", start });
    } else if (/\s/.test(c)) {
      while (i < sql.length && /\s/.test(sql[i])) i++;
      out.push({ kind: "space", text: " ", start });
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      i++;
      while (i < sql.length) {
        if (sql[i] === close) {
          if (sql[i + 1] === close && close !== "]") i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
      out.push({ kind: c === "'" ? "string" : "quoted", text: sql.slice(start, i), start });
    } else if (/[A-Za-z0-9_$@{}]/.test(c)) {
      while (i < sql.length && /[A-Za-z0-9_$@{}]/.test(sql[i])) i++;
      out.push({ kind: "word", text: sql.slice(start, i), start });
    } else {
      i++;
      out.push({ kind: "punct", text: c, start });
    }
  }
  return out;
}

/**
 * Splits SQL code into normalized statements, each with its span in the original command.
 * sqlite-style dot-commands (`.tables`) are not SQL; `.shell CMD` / `.system CMD` run CMD in a
 * shell and are returned as shell code.
 */
export function sqlStatements(code: Code): { statements: SqlStatement[]; shell: Code[] } {
  const shell: Code[] = [];
  const blanked = code.text.replace(/^([ \t]*)\.(\w+)([^\n]*)/gm, (line, lead: string, name: string, rest: string, offset: number) => {
    if (name === "shell" || name === "system") shell.push(sliceCode(code, offset + lead.length + 1 + name.length, offset + line.length));
    void rest;
    return " ".repeat(line.length);
  });
  const tokens = tokenize(blanked);
  const out: SqlStatement[] = [];
  let cur: Token[] = [];
  const flush = (end: number, bySemicolon: boolean) => {
    let endIndex = end;
    const body = cur.filter((t, k) => t.kind !== "space" || (k > 0 && k < cur.length - 1));
    cur = [];
    if (!body.some((t) => t.kind !== "space")) return;
    const first = body.find((t) => t.kind !== "space")!;
    const last = [...body].reverse().find((t) => t.kind !== "space")!;
    if (!bySemicolon) endIndex = last.start + last.text.length;
    const render = (unq: boolean) =>
      body
        .map((t) => (t.kind === "word" && KEYWORDS.has(t.text.toLowerCase()) ? t.text.toUpperCase() : t.kind === "quoted" && unq ? t.text.slice(1, -1).replace(/\s+/g, "_") : t.text))
        .join("")
        .replace(/\s+/g, " ")
        .replace(/\s*([(),.])\s*/g, "$1")
        .trim() + ";";
    const text = render(false);
    const unquoted = render(true);
    const unqualified = unquoted.replace(/\b\w+\.(?=\w)/g, "");
    // A DELETE whose only clauses are not WHERE (`RETURNING *`, `USING …`, an alias, a CTE before
    // it) still deletes every row: also shown as the bare `DELETE FROM t;`.
    const del = /^(?:WITH\b.*?\s)?DELETE FROM (?:ONLY )?(\w+)\b(.*);$/.exec(unqualified);
    const bare = del && del[2].trim() !== "" && !/\b(WHERE|LIMIT|CURRENT)\b/.test(del[2]) ? [`DELETE FROM ${del[1]};`] : [];
    // A WHERE that holds for every row (`WHERE 1=1`, `WHERE true`, `WHERE id = id`) filters
    // nothing (issue 36): also shown without it, for the rules about a DELETE or UPDATE without WHERE.
    // (Compared qualified: `t.id = u.id` is a join, not a column compared with itself.)
    const tautology = /^((?:WITH\b.*?\s)?(?:DELETE FROM|UPDATE)\b.*?)\s+WHERE\s+(.+?)\s*(\bRETURNING\b.*)?;$/.exec(unquoted);
    const table = tautology && /^DELETE FROM (?:ONLY )?(?:\w+\.)*(\w+)/.exec(tautology[1]);
    const unfiltered = tautology && alwaysTrue(tautology[2]) ? [`${tautology[1]}${tautology[3] ? ` ${tautology[3]}` : ""};`, ...(table ? [`DELETE FROM ${table[1]};`] : [])] : [];
    // `DROP OWNED BY role` drops every object the role owns: a schema's worth (issue 36).
    // ClickHouse's `ALTER TABLE t DELETE WHERE 1`: a DELETE by another name.
    const mutation = /^ALTER TABLE (\w+) DELETE WHERE (.+);$/i.exec(unqualified);
    if (mutation && alwaysTrue(mutation[2])) unfiltered.push(`DELETE FROM ${mutation[1]};`);
    // Dynamic SQL (issue 36): a procedural block or a prepared statement runs the text its string
    // literals build (`EXECUTE 'DROP ' || 'TABLE ' || t`, `CONCAT('TRUNC','ATE TABLE p')`,
    // `format('DROP OWNED BY %I', r)`): also shown as those literals joined.
    const dynamic = /^(DO|EXECUTE|PREPARE|SET|CALL|BEGIN|DECLARE)\b|\bEXECUTE\b/i.test(text) ? [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]).join("") : "";
    const built = [dynamic, ...executed(text)].filter((d) => /\b(DROP|TRUNCATE|DELETE|ALTER)\b/i.test(d)).map((d) => `${d.replace(/\s+/g, " ").trim()};`);
    const owned = /^DROP OWNED BY (\S+)/i.exec(unqualified) ?? /\bDROP OWNED BY (\S+)/i.exec(dynamic);
    const ownership = owned ? [`DROP SCHEMA ${owned[1]};`] : [];
    const variants = [...new Set([unquoted, unqualified, ...bare, ...unfiltered, ...ownership, ...built])].filter((v) => v !== text);
    out.push({ text, variants, span: spanIn(code, first.start, endIndex) });
  };
  for (const t of tokens) {
    if (t.kind === "punct" && t.text === ";") {
      flush(t.start + 1, true);
      continue;
    }
    cur.push(t);
  }
  flush(code.text.length, false);
  return { statements: out, shell };
}

/**
 * The statement each `EXECUTE` of a procedural block runs (issue 36): the string literals of its
 * expression joined, an operand that is not a literal (`quote_ident(r.tablename)`, `t`) and a
 * `format()` placeholder (`%I`, `%s`, `%L`) standing as one identifier. `EXECUTE format('DELETE
 * FROM %I', r.tablename)` in a loop over the tables is `DELETE FROM x;`, whatever the loop selects.
 */
function executed(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/\bEXECUTE\b/i).slice(1)) {
    const expr = part.split(/\b(?:USING|INTO|LOOP|END|THEN)\b|;/i)[0];
    let built = "";
    let last = 0;
    for (const m of expr.matchAll(/'((?:[^']|'')*)'/g)) {
      // Something other than concatenation between two literals is a value: one identifier.
      const between = expr.slice(last, m.index).replace(/\b(format|concat|CONCAT|FORMAT)\s*\(|\|\||[(),\s]/g, "");
      if (between !== "" && built !== "") built += " x ";
      built += m[1].replace(/''/g, "'").replace(/%[ILs]/g, "x");
      last = m.index + m[0].length;
    }
    if (built === "") continue;
    // `… || t` after the last literal is concatenated; `format('…', t)`'s `, t` fills a placeholder.
    if (/\|\|\s*\S/.test(expr.slice(last))) built += " x";
    out.push(built);
  }
  return out;
}

/** A condition true for every row: a constant comparison, `TRUE`, a column compared with itself, or either of those OR anything. */
export function alwaysTrue(cond: string): boolean {
  const c = cond.trim().replace(/^\((.*)\)$/, "$1").trim();
  const one = (t: string) => {
    const x = t.trim().replace(/^\((.*)\)$/, "$1").trim();
    if (/^(TRUE|1|NOT FALSE|NOT 0)$/i.test(x)) return true;
    const m = /^('[^']*'|\d+(?:\.\d+)?|\w+)\s*(=|>=|<=|IS|LIKE)\s*('[^']*'|\d+(?:\.\d+)?|\w+)$/i.exec(x);
    if (m && m[1] === m[3] && !/^(NULL)$/i.test(m[1])) return true;
    const n = /^(\d+)\s*(<>|!=|>|<)\s*(\d+)$/.exec(x);
    if (n) return n[2] === ">" ? Number(n[1]) > Number(n[3]) : n[2] === "<" ? Number(n[1]) < Number(n[3]) : n[1] !== n[3];
    if (/^\w+\s+LIKE\s+'%+'$/i.test(x) || /^\w+\s+IS\s+NOT\s+NULL\s+OR\s+\w+\s+IS\s+NULL$/i.test(x)) return true;
    return false;
  };
  return c.split(/\s+OR\s+/i).some(one) && !/\bAND\b/i.test(c) ? true : one(c);
}
