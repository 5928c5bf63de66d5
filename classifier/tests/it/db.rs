//! The `db` family: read vs write statements, the drop floor, client commands,
//! heredoc bodies, files and dumps, with bypass and false-positive forms.

use crate::check::check;

#[test]
fn read_only_statements_are_free() {
    check("psql -c 'SELECT count(*) FROM users'", "T0");
    check("psql -d app -c 'WITH x AS (SELECT 1) SELECT * FROM x'", "T0");
    check("psql -d app -c 'EXPLAIN SELECT 1'", "T0");
    check("mysql -e 'SHOW TABLES' app", "T0");
    check("mysql -eSELECT\\ 1", "T0");
    check("sqlite3 app.db 'SELECT * FROM t LIMIT 5'", "T0");
    check("sqlite3 /tmp/x.db \"PRAGMA table_info(users)\"", "T0");
    check("duckdb -c 'SELECT 42'", "T0");
    check("clickhouse-client --query 'SELECT 1'", "T0");
    check("cqlsh -e 'SELECT * FROM ks.t LIMIT 1'", "T0");
}

#[test]
fn words_inside_strings_and_comments_are_data() {
    check("psql -c \"select 'drop table x'\"", "T0");
    check("psql -c 'SELECT 1 -- DROP TABLE users'", "T0");
    check("psql -c 'SELECT $$; DROP TABLE x; $$'", "T0");
    check("mysql -e \"SELECT 'DELETE FROM t'\"", "T0");
    check("redis-cli GET FLUSHALL", "T0");
}

#[test]
fn writes_ask() {
    check("psql -d app -c \"UPDATE users SET admin = true\"", "T3");
    check("psql -d app -c 'SELECT 1; DELETE FROM t'", "T3");
    check("psql -c 'SELECT * INTO backup FROM t'", "T3");
    check("psql -c 'EXPLAIN ANALYZE DELETE FROM t'", "T3");
    check("psql -c 'SELECT pg_terminate_backend(42)'", "T3");
    check("psql -c 'TRUNCATE logs'", "T3");
    check("psql -c 'DELETE FROM sessions'", "T3");
    check("mysql -e \"DELETE FROM users WHERE id=1\" app", "T3");
    check("sqlite3 app.db \"UPDATE t SET x=1\"", "T3");
    check("sqlite3 x.db 'PRAGMA journal_mode = WAL'", "T3");
    check("psql -c \"$SQL\"", "T3");
}

#[test]
fn the_drop_floor_is_blocked_in_every_form() {
    check("psql -c 'DROP DATABASE prod'", "BLOCKED");
    check("psql -d app -c 'drop table users'", "BLOCKED");
    check("psql -d app -c 'SELECT 1; DROP TABLE IF EXISTS users'", "BLOCKED");
    check("psql -c 'DROP SCHEMA app CASCADE'", "BLOCKED");
    check("psql -c 'DROP SCHEMA app'", "T3");
    check("mysql -e 'DROP SCHEMA app'", "BLOCKED");
    check("sqlite3 app.db 'DROP TABLE t'", "BLOCKED");
    check("sudo -u postgres psql -c 'DROP DATABASE prod'", "BLOCKED");
    check("bash -c \"psql -c 'DROP DATABASE prod'\"", "BLOCKED");
    check("/usr/bin/psql -c 'DROP DATABASE prod'", "BLOCKED");
    check("dropdb prod", "BLOCKED");
    check("dropdb -h db.internal -U admin prod", "BLOCKED");
    check("mysqladmin -f drop app", "BLOCKED");
    check("mongosh app --eval 'db.dropDatabase()'", "BLOCKED");
    check("redis-cli FLUSHALL", "BLOCKED");
    check("redis-cli -h prod -n 3 flushdb", "BLOCKED");
    check("cqlsh -e 'DROP KEYSPACE prod'", "BLOCKED");
}

#[test]
fn heredocs_into_clients_are_executed_statements() {
    check("psql -d app <<'SQL'\nSELECT 1;\nSQL", "T0");
    check("psql -d app <<'SQL'\nUPDATE users SET active = false;\nSQL", "T3");
    check("psql -d app <<'SQL'\n\\dt\nDROP TABLE users;\nSQL", "BLOCKED");
    check("psql -d app <<< 'DROP DATABASE app'", "BLOCKED");
    check("sqlite3 app.db <<'EOF'\n.tables\nSELECT 1;\nEOF", "T0");
    check("sqlite3 app.db <<'EOF'\n.shell rm -rf build\nEOF", "T3");
    check("redis-cli <<'EOF'\nGET a\nFLUSHALL\nEOF", "BLOCKED");
    check("mongosh app <<'EOF'\ndb.users.find()\nEOF", "T0");
    check("cat > q.sql <<'SQL'\nDROP TABLE users;\nSQL", "T0");
}

#[test]
fn client_commands_and_files() {
    check("psql -d mydb -c '\\l'", "T0");
    check("psql -d mydb -c '\\d+ mytable'", "T0");
    check("psql -d mydb --command='\\du'", "T0");
    check("psql -d mydb -c \"\\i /tmp/migration.sql\"", "T3");
    check("psql -d mydb -c \"\\copy t FROM '/tmp/x.csv'\"", "T3");
    check("psql -d mydb -c '\\dt\u{b}UPDATE t SET x=1'", "T3");
    check("psql -d mydb -c '\\dt\u{2028}UPDATE t SET x=1'", "T3");
    check("psql -d mydb -c \"\\! dropdb prod\"", "BLOCKED");
    check("psql -d app -f migrate.sql", "T3");
    check("psql -d app < migrate.sql", "T3");
    check("mysql app < dump.sql", "T3");
    check("sqlite3 app.db .schema", "T0");
    check("sqlite3 /tmp/x.db .dump", "T0");
    check("sqlite3 /tmp/x.db '.read /tmp/m.sql'", "T3");
    check("sqlite3 /tmp/x.db '.system ls'", "T3");
    check("sqlite3 -readonly app.db 'DELETE FROM t'", "T0");
    check("sqlite3 -readonly app.db '.shell ls'", "T3");
    check("psql -o /etc/out.txt -c 'SELECT 1'", "T3");
    check("psql -o out.txt -c 'SELECT 1'", "T0");
}

#[test]
fn interactive_clients_ask() {
    check("psql", "T3");
    check("psql -h db -U app app", "T3");
    check("mysql -u root -p app", "T3");
    check("sqlite3 app.db", "T3");
    check("redis-cli", "T3");
    check("mongosh", "T3");
    check("psql --version", "T0");
    check("psql -l", "T0");
}

#[test]
fn redis_and_mongo_read_vs_write() {
    check("redis-cli KEYS 'user:*'", "T0");
    check("redis-cli -u \"$REDIS_URL\" ping", "T0");
    check("redis-cli DEL \"$KEY\"", "T3");
    check("psql \"$DATABASE_URL\" -c 'select 1'", "T0");
    check("mysql -u root -p\"$PASS\" -e 'SELECT 1'", "T0");
    check("redis-cli -h prod CONFIG GET maxmemory", "T0");
    check("redis-cli --scan --pattern 'user:*'", "T0");
    check("redis-cli SET k v", "T3");
    check("redis-cli -h prod CONFIG SET appendonly no", "T3");
    check("redis-cli --pipe", "T3");
    check("mongosh --eval 'db.users.countDocuments()'", "T0");
    check("mongosh --eval \"db.users.findOne({_id: 1})\"", "T0");
    check("mongosh --eval 'db.orders.aggregate([{$match: {}}])'", "T0");
    check("mongosh --eval \"db.orders.aggregate([{'$out': 'copy'}])\"", "T3");
    check("mongosh --eval \"db.find().forEach(d => db.t.insertOne(d))\"", "T3");
    check("mongosh --eval 'db.collection.drop()'", "BLOCKED");
    check("mongosh app deploy.js", "T3");
}

#[test]
fn dumps_restores_and_admin() {
    check("pg_dump app > app.sql", "T0");
    check("pg_dump -f app.sql app", "T0");
    check("pg_dump -f /etc/app.sql app", "T3");
    check("mysqldump app > dump.sql", "T0");
    check("pg_restore -d app app.dump", "T3");
    check("pg_restore -l app.dump", "T0");
    check("mongorestore dump/", "T3");
    check("createdb app_test", "T3");
    check("pg_ctl status", "T0");
    check("pg_ctl restart -D /var/lib/pg", "T3");
    check("mysqladmin status", "T0");
    check("influx query 'from(bucket:\"b\") |> range(start: -1h)'", "T0");
    check("influx bucket delete -n b", "T3");
}

#[test]
fn migrations_apply_read_or_reset() {
    check("rails db:migrate", "T3");
    check("bin/rails db:migrate", "T3");
    check("rails db:migrate:status", "T0");
    check("rails db:drop", "BLOCKED");
    check("rake db:reset", "BLOCKED");
    check("rails routes", "T0");
    check("rails console", "T3");
    check("alembic upgrade head", "T3");
    check("alembic downgrade -1", "T3");
    check("alembic history", "T0");
    check("alembic revision --autogenerate -m 'add users'", "T0");
    check("python3 -m alembic upgrade head", "T3");
    check("python3 -m alembic current", "T0");
    check("npx prisma migrate dev", "T3");
    check("npx prisma migrate status", "T0");
    check("npx prisma generate", "T0");
    check("npx prisma migrate reset --force", "BLOCKED");
    check("prisma db push --force-reset", "BLOCKED");
    check("flyway info", "T0");
    check("flyway migrate", "T3");
    check("flyway clean", "BLOCKED");
    check("knex migrate:latest", "T3");
    check("sequelize db:migrate:status", "T0");
    check("sequelize db:drop", "BLOCKED");
    check("dbmate up", "T3");
    check("goose -dir db postgres \"$DSN\" status", "T0");
    check("diesel migration run", "T3");
    check("sqlx migrate info", "T0");
    check("django-admin migrate", "T3");
    check("django-admin showmigrations", "T0");
}
