// Data stores emptied by other routes (issue 36, family 4). DATA in the remote table's row format:
// migration and schema tools' verbs that empty or drop a database (judged by what is dropped: a
// verb that deletes a migration file is not a database drop), a key-value store's delete fed by a
// scan (the keys only known at run time), server-side scripts that delete, restores that drop first.
import type { RemoteProgram, RemoteRow } from "./row";

// (`-h` is not help here: single-dash long options such as `-path` read as bundles holding an h.)
const HELP = ["help", "dry-run", "dryRun"];
const drops = (sub: string, more: Partial<RemoteRow> = {}): RemoteRow => ({ sub: sub === "" ? [] : sub.split(" "), effect: "destroy-all", target: "data-service", unless: HELP, ...more });
const deletes = (sub: string, more: Partial<RemoteRow> = {}): RemoteRow => ({ ...drops(sub, more), effect: "destroy" });
/** Redis commands are case-insensitive. */
const anyCase = (words: string) => words.split("|").flatMap((w) => [w, w.toUpperCase()]).join("|");

/**
 * Django's `migrate APP zero` unapplies every migration of APP: all its tables go (issue 36). A
 * migration to a named earlier one (`migrate APP 0003`) is one of the single steps back below.
 */
const DJANGO_ZERO = drops("migrate * zero");

export const DATA_STORE_ENTRIES: Record<string, RemoteProgram> = {
  // A single step back (`migrate down 1`, `knex migrate:rollback`) is routine: it undoes the
  // migration being written, and the incidents corpus counts `artisan migrate:rollback --step=1`
  // as everyday (issue 36 kept this decision; test/unit/defaults-db-reset.test.ts). All of them is a drop.
  migrate: { rows: [drops("drop"), drops("down", { when: ["all"] })] },
  mix: { rows: [drops("ecto.rollback", { when: ["all"] })] },
  "manage.py": { rows: [DJANGO_ZERO] },
  "django-admin": { rows: [DJANGO_ZERO] },
  // `python manage.py migrate APP zero`, `python -m django migrate APP zero`.
  python: { rows: [DJANGO_ZERO] },
  python3: { rows: [DJANGO_ZERO] },
  sqlx: { rows: [drops("database drop|reset")] },
  atlas: { rows: [drops("schema clean")] },
  sqitch: { rows: [drops("revert", { unless: [...HELP, "to", "to-change"] })] },
  "sea-orm-cli": { rows: [drops("migrate fresh|reset|refresh")] },
  "mikro-orm": { rows: [drops("schema:drop|schema:fresh|migration:fresh")] },
  dotnet: { rows: [drops("ef database drop"), drops("ef database update", { operand: /^0$/ })] },
  liquibase: { rows: [drops("dropAll|drop-all|drop-all-sql")] },
  diesel: { rows: [drops("database reset|drop")] },
  goose: { rows: [drops("reset"), drops("* reset"), drops("* * reset")] },
  dbmate: { rows: [drops("drop")] },
  flyway: { rows: [drops("clean")] },
  "pg_restore": { rows: [deletes("", { when: ["c", "clean"] })] },
  mongorestore: { rows: [deletes("", { when: ["drop"] })] },
  // The MongoDB shells' scripts (mongo-script.ts): a drop or an always-true delete empties the store.
  mongosh: { special: "mongo" },
  mongo: { special: "mongo" },
  // A delete of keys only known at run time (`redis-cli --scan … | xargs redis-cli del`): many keys.
  "redis-cli": { rows: [deletes(anyCase("del|unlink"), { operand: /^$/ }), deletes(anyCase("eval|evalsha|fcall|function"), { operand: /\b(del|unlink|flushall|flushdb)\b/i })] },
  "valkey-cli": { rows: [deletes(anyCase("del|unlink"), { operand: /^$/ }), deletes(anyCase("eval|evalsha|fcall|function"), { operand: /\b(del|unlink|flushall|flushdb)\b/i })] },
};
