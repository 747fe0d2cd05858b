// Issue 36, family 4: data stores emptied by other routes — statements through a here-document or
// a file written in the same call, conditions that are always true, ownership drops, migration and
// schema tools' drop verbs (src/engine/remote/data-stores.ts), scan-then-delete pipelines,
// server-side scripts, restores that drop first. Everyday first.
import { assertAllowed, assertDecidedByAlone } from "./defaults-helpers";

describe("defaults: data stores emptied by other routes (issue 36)", () => {
  it("passes filtered deletes, migrations forward, reads and a migration file's removal", () => {
    assertAllowed([
      'psql -c "DELETE FROM users WHERE id = 42"',
      'psql -c "DELETE FROM users WHERE id = 3 AND 1=1"',
      "psql -c \"UPDATE users SET name = 'a' WHERE id = 1\"",
      "echo 'SELECT 1;' > t.sql; psql mydb < t.sql",
      "flyway migrate",
      "liquibase update",
      "dbmate up",
      "drizzle-kit drop",
      "redis-cli del session:42",
      "redis-cli get mykey",
      "pg_restore -d dev dump.sql",
    ]);
  });

  it("refuses statements that reach the client through a file written in the same call or a here-document", () => {
    assertDecidedByAlone("sql-drop-table", "block", ["cat > /tmp/x.sql <<'EOF'\nDROP TABLE users;\nEOF\npsql -f /tmp/x.sql", "printf 'DROP TABLE users;' > drop.sql && psql -f drop.sql"]);
    assertDecidedByAlone("sql-drop-database", "block", ["echo 'TRUNCATE orders;' > t.sql; psql mydb < t.sql", 'psql -c "DROP OWNED BY app_user"']);
  });

  it("refuses dynamic SQL whose literals build a drop, and a process substitution fed to the client", () => {
    assertDecidedByAlone("sql-drop-table", "block", ["psql -d app -f - <<'SQL'\nDO $$ BEGIN EXECUTE 'DROP ' || 'TABLE ' || 'customers'; END $$;\nSQL"]);
    assertDecidedByAlone("sql-drop-database", "block", ["mysql app -e \"SET @s = CONCAT('TRUNC','ATE TABLE payments'); PREPARE st FROM @s; EXECUTE st;\"", "mysql -u root app < <(echo 'DROP DATABASE app')"]);
    assertAllowed(["psql -c \"SELECT 'drop table x' AS note\"", "mysql app < <(echo 'SELECT 1')"]);
  });

  it("refuses a WHERE that holds for every row", () => {
    assertDecidedByAlone("sql-delete-without-where", "block", ['psql -c "DELETE FROM users WHERE 1=1"', 'psql -c "DELETE FROM users WHERE true;"', 'mysql -e "DELETE FROM orders WHERE id = id"', "psql mydb <<'EOF'\nDELETE FROM users WHERE 1=1 OR id = 3;\nEOF"]);
    assertDecidedByAlone("sql-update-without-where", "block", ["psql -c \"UPDATE users SET password = 'x' WHERE 1=1\""]);
  });

  it("refuses migration tools' drops and asks before scan-then-delete, delete scripts and dropping restores", () => {
    assertDecidedByAlone("remote-destroy-all-data", "block", ["flyway clean", "flyway -url=jdbc:postgresql://db/app clean", "liquibase dropAll", "dbmate drop", "sqlx database reset -y", "atlas schema clean -u postgres://db/app"]);
    assertDecidedByAlone("remote-destroy-data", "ask", [
      "redis-cli --scan --pattern 'user:*' | xargs redis-cli del",
      "redis-cli KEYS 'sess:*' | xargs redis-cli DEL",
      "redis-cli EVAL \"for _,k in ipairs(redis.call('keys','*')) do redis.call('del',k) end\" 0",
      "pg_restore --clean -d prod dump.sql",
      "mongorestore --drop dump/",
    ]);
  });
});
