// SQL clients: the SQL they are given (argument, -c/-e/-cmd option, or stdin) is split into
// statements, and each normalized statement (see ../sql.ts) is an executed command of its own.
// The client invocation itself is shown with the SQL as DATA.
import { sqlStatements } from "../sql";
import { DATA } from "../normalize";
import { parseOptions, valuesOf, type OptionSpec } from "../options";
import type { Handler, Invocation, Runner } from "../runner";
import type { Arg } from "../words";
import { mentionAll, shown, writtenText } from "./common";

interface ClientSpec extends OptionSpec {
  /** Options whose value is SQL. */
  sqlOptions: string[];
  /** Options whose value is a file of SQL (read). */
  fileOptions?: string[];
  /** Operands: the first is the database, the following are SQL (sqlite3, duckdb). */
  operandsAreSql?: boolean;
}

const CLIENTS: Record<string, ClientSpec> = {
  sqlite3: { singleDashLong: true, longWithValue: ["cmd", "init", "separator", "newline", "nullvalue", "escape", "vfs", "lookaside", "maxsize", "mmap", "pagecache", "heap"], sqlOptions: ["cmd"], fileOptions: ["init"], operandsAreSql: true },
  duckdb: { shortWithValue: "cs", singleDashLong: true, longWithValue: ["cmd", "c", "s", "init", "f"], sqlOptions: ["c", "s", "cmd"], fileOptions: ["init", "f"], operandsAreSql: true },
  psql: { shortWithValue: "cdfhpUvPTLoFRz", longWithValue: ["command", "dbname", "file", "host", "port", "username", "set", "variable", "pset", "output", "log-file", "field-separator", "record-separator"], sqlOptions: ["c", "command"], fileOptions: ["f", "file"] },
  mysql: { shortWithValue: "eDhPuSOT", longWithValue: ["execute", "database", "host", "port", "user", "socket", "init-command", "defaults-file"], sqlOptions: ["e", "execute", "init-command"] },
  mariadb: { shortWithValue: "eDhPuSOT", longWithValue: ["execute", "database", "host", "port", "user", "socket", "init-command", "defaults-file"], sqlOptions: ["e", "execute", "init-command"] },
  "clickhouse-client": { shortWithValue: "qdhu", longWithValue: ["query", "database", "host", "user", "password", "port"], sqlOptions: ["q", "query"] },
  sqlcmd: { shortWithValue: "QqdSUPi", sqlOptions: ["Q", "q"], fileOptions: ["i"] },
  // Cassandra's shell: CQL is SQL's statements for these rules (DROP KEYSPACE is a DROP DATABASE).
  cqlsh: { shortWithValue: "efkup", longWithValue: ["execute", "file", "keyspace", "username", "password", "cqlversion", "protocol-version", "connect-timeout", "request-timeout", "encoding", "cqlshrc"], sqlOptions: ["e", "execute"], fileOptions: ["f", "file"] },
};

/** The SQL clients: what they read from a file or their input is SQL they run (src/engine/sandbox/kernel-answers.ts). */
export const SQL_CLIENTS: ReadonlySet<string> = new Set(Object.keys(CLIENTS));

/** Runs SQL text as the clients do (also used for `cursor.execute("…")` in inline code). */
export function runSql(inv: Invocation, r: Runner, code: import("../code").Code): void {
  const { statements, shell } = sqlStatements(code);
  for (const st of statements) r.sink.command(st.variants.length ? { text: st.text, variants: st.variants, span: st.span } : { text: st.text, span: st.span });
  for (const s of shell) r.runCode(s, inv.scope.child(), { kind: "none" }, inv.depth + 1, `${inv.name} .shell`);
}

const client =
  (spec: ClientSpec): Handler =>
  (inv, r) => {
    const p = parseOptions(inv.args, spec);
    const sqlArgs: Arg[] = valuesOf(p, ...spec.sqlOptions);
    if (spec.operandsAreSql) sqlArgs.push(...p.operands.slice(1));
    const sqlSet = new Set(sqlArgs);
    r.emit(inv, { head: [inv.name], args: inv.args.map((a) => (sqlSet.has(a) ? DATA : shown(a))), fixedOrder: true });
    for (const f of valuesOf(p, ...(spec.fileOptions ?? []))) {
      r.path(inv, f, "read", false, inv.name);
      // A file of SQL written earlier in this command line: its statements run (issue 36).
      const written = writtenText(inv, f);
      if (written) runSql(inv, r, written);
    }
    mentionAll(inv, r, spec.operandsAreSql ? p.operands.slice(0, 1) : p.operands);
    for (const a of sqlArgs) {
      if (!a.code || a.unknown) r.uncertain(`${inv.name} runs SQL that is only known when the command runs (\`${a.text}\`)`, a.span);
      if (a.code) runSql(inv, r, a.code);
    }
    if (sqlArgs.length === 0 && inv.stdin.kind === "text") runSql(inv, r, inv.stdin.code);
    // `psql < drop.sql` after writing drop.sql in the same line.
    if (sqlArgs.length === 0 && inv.stdin.kind === "unknown" && inv.stdin.file) {
      const written = inv.scope.get(`written ${inv.stdin.file}`);
      if (written.kind === "literal" && written.code) runSql(inv, r, written.code);
    }
  };

export function sqlHandlers(): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const [name, spec] of Object.entries(CLIENTS)) out[name] = client(spec);
  return out;
}
