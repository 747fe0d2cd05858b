// The e2e database: a PGlite data directory seeded with a `users` table, and a look at what is in
// it after a run (the MCP server has exited; PGlite opens the same directory again).
import { PGlite } from "@electric-sql/pglite";

export async function seedUsers(dataDir: string): Promise<void> {
  const db = new PGlite(dataDir);
  await db.exec("CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL); INSERT INTO users (email) VALUES ('ann@example.com'), ('bob@example.com');");
  await db.close();
}

/** The tables of the public schema. */
export async function tablesIn(dataDir: string): Promise<string[]> {
  const db = new PGlite(dataDir);
  const r = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
  await db.close();
  return r.rows.map((x) => x.tablename);
}
