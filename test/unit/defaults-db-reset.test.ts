// Default rule family: database and environment resets through ORMs and CLIs (block).
// Incidents: anthropics/claude-code#33183 (prisma db push reset a production database),
// #47694 and #57165 (supabase db reset wiped curated local data). See docs/defaults.md.
import { assertAllowed, assertDecidedByAlone, assertFamily } from "./defaults-helpers";

describe("defaults: database and environment resets (block)", () => {
  it("prisma migrate reset, through every package runner and with options between", () => {
    assertFamily("db-reset-prisma", "block", [
      "prisma migrate reset",
      "npx prisma migrate reset --force",
      "npx --yes prisma@5.22.0 migrate reset --force --schema=./prisma/schema.prisma",
      "pnpm dlx prisma migrate reset -f",
      "pnpm --filter api exec prisma migrate reset",
      "pnpm -C apps/api prisma migrate reset",
      "yarn prisma migrate reset --force",
      "yarn workspace api prisma migrate reset",
      "yarn dlx prisma migrate reset",
      "bunx prisma migrate reset",
      "bun x prisma migrate reset",
      "npm exec -- prisma migrate reset",
      "npx -c 'prisma migrate reset --force'",
      "env DATABASE_URL=postgres://x npx prisma migrate reset",
      "bash -c 'cd api && npx prisma migrate reset --force'",
      "make -f - reset <<'EOF'\nreset: deps\n\t@npx prisma migrate reset --force\ndeps:\n\tnpm ci\nEOF",
    ]);
  });

  it("prisma db push that accepts the data loss", () => {
    assertFamily("db-push-data-loss-prisma", "block", ["npx prisma db push --force-reset", "prisma db push --skip-generate --accept-data-loss", "bunx prisma db push --force-reset"]);
  });

  it("supabase db reset, local or linked", () => {
    assertFamily("db-reset-supabase", "block", ["supabase db reset", "npx supabase db reset --linked", "npx supabase@latest db reset", "timeout 120 npx supabase db reset --db-url postgres://localhost:54322/postgres"]);
  });

  it("rails and rake tasks that drop or empty the database", () => {
    // Behaviour change on purpose (issue 36, family 4): a test database (`RAILS_ENV=test`) is everyday; production is not.
    assertFamily("db-reset-rails", "block", ["rails db:drop", "bin/rails db:drop db:create db:migrate", "bundle exec rake db:reset", "RAILS_ENV=production rails db:schema:load", "rails db:migrate:reset", "bin/rails db:seed:replant"]);
  });

  it("the other ORMs' resets: Laravel, Sequelize, TypeORM, Knex, Alembic, Ecto, Doctrine", () => {
    assertFamily("db-reset-orm", "block", [
      "php artisan migrate:fresh --seed",
      "./vendor/bin/sail artisan migrate:refresh",
      "php artisan db:wipe --force",
      "npx sequelize-cli db:drop",
      "npx sequelize db:migrate:undo:all",
      "npx typeorm schema:drop -d src/data-source.ts",
      "npx typeorm-ts-node-commonjs schema:drop",
      "npx knex migrate:rollback --all",
      "alembic downgrade base",
      "mix ecto.reset",
      "php bin/console doctrine:database:drop --force",
    ]);
  });

  it("manage.py flush / reset_db", () => {
    assertFamily("db-flush-django", "block", ["python manage.py flush --noinput", "./manage.py flush", "uv run python manage.py reset_db --noinput", "django-admin flush"]);
  });

  it("dropdb, mysqladmin drop, dropDatabase(), FLUSHALL, heroku pg:reset, drizzle-kit push --force", () => {
    assertFamily("db-drop-cli", "block", ["dropdb app_dev", "dropdb -h localhost -U postgres --if-exists app", "mysqladmin -u root drop app"]);
    // The MongoDB shells' scripts are also read as what they do (issue 36, remote/mongo-script.ts):
    // remote-destroy-all-data refuses them too; db-drop-mongo alone still catches each.
    assertFamily("db-drop-mongo", "block", ["mongosh --eval 'db.dropDatabase()'", "mongo app --quiet --eval \"db.getSiblingDB('x').dropDatabase()\""], ["remote-destroy-all-data"]);
    assertFamily("db-flush-redis", "block", ["redis-cli flushall", "redis-cli -h 127.0.0.1 -n 3 FLUSHDB", "valkey-cli FLUSHALL ASYNC"]);
    assertFamily("db-reset-heroku", "block", ["heroku pg:reset DATABASE --confirm app"]);
    assertFamily("db-push-force-drizzle", "block", ["npx drizzle-kit push --force", "drizzle-kit push:pg --force"]);
  });

  it("DROP DATABASE / DROP SCHEMA / TRUNCATE in SQL the shell analysis reads", () => {
    assertFamily("sql-drop-database", "block", ["psql -c 'drop database app'", "mysql -e 'DROP SCHEMA app'", "psql \"$DATABASE_URL\" -c 'truncate table users'"]);
  });

  it("every migration of an app unapplied (issue 36): manage.py migrate APP zero, ecto.rollback --all", () => {
    assertDecidedByAlone("remote-destroy-all-data", "block", ["python manage.py migrate shop zero", "./manage.py migrate accounts zero", "python3 -m django migrate shop zero", "uv run python manage.py migrate shop zero", "mix ecto.rollback --all"]);
    // One step back stays everyday (the decision above, reviewed in issue 36: the incidents corpus
    // counts `php artisan migrate:rollback --step=1` as everyday); so do a named earlier migration,
    // a test database and the forward verbs.
    assertAllowed(["python manage.py migrate shop 0003", "python manage.py migrate", "python manage.py makemigrations shop", "python manage.py showmigrations", "DJANGO_SETTINGS_MODULE=app.settings python -m django migrate", "mix ecto.rollback", "mix ecto.rollback --step 1", "python script.py migrate x zero_day"]);
  });

  it("passes the routine work around them", () => {
    assertAllowed([
      "npx prisma migrate dev --name init",
      "npx prisma migrate deploy",
      "pnpm prisma generate",
      "yarn prisma db push",
      "npx prisma migrate dev --name reset_flags",
      "npx supabase migration up",
      "supabase db diff -f x",
      "bin/rails db:migrate",
      "bundle exec rails db:rollback",
      "python manage.py migrate",
      "php artisan migrate",
      "php artisan migrate:rollback --step=1",
      "npx knex migrate:rollback",
      "npx sequelize-cli db:migrate",
      "alembic upgrade head",
      "alembic downgrade -1",
      "mix ecto.migrate",
      "python manage.py sqlflush",
      "createdb app_test",
      "redis-cli get session:1",
      "mongosh --eval 'db.users.countDocuments()'",
      "npx drizzle-kit push",
      "make -f - dev <<'EOF'\ndev:\n\tnpx prisma migrate dev\nreset:\n\tnpx prisma migrate reset --force\nEOF",
      "make -n -f - reset <<'EOF'\nreset:\n\tnpx prisma migrate reset --force\nEOF",
      "git commit -m 'do not run prisma migrate reset'",
      "pnpm rm prisma",
    ]);
  });
});
