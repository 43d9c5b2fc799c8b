// The PostgreSQL schema, as plain SQL migrations versioned in schema_migrations like the SQLite
// store's. The tables mirror SQLite's; what differs is what PostgreSQL does better: booleans,
// jsonb, a trigger function for webhook_subscriptions, bigint epoch-ms outbox times. Resource
// times stay the API's ISO-8601 UTC strings, and ids and times sort bytewise (COLLATE "C"), so
// the (created_at, id) cursor orders exactly as on SQLite and every list index serves it.
import type pg from 'pg';

// Append only: a released migration is never edited, a new one gets the next number.
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE policies (
     id text COLLATE "C" PRIMARY KEY,
     name text NOT NULL,
     description text NOT NULL,
     severity text NOT NULL,
     enabled boolean NOT NULL,
     frameworks jsonb NOT NULL,
     rule jsonb,
     version integer NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     updated_at text NOT NULL
   );
   CREATE INDEX policies_order ON policies (created_at DESC, id DESC);
   CREATE INDEX policies_enabled ON policies (enabled, created_at DESC, id DESC);
   CREATE INDEX policies_severity ON policies (severity, created_at DESC, id DESC);
   CREATE INDEX policies_enabled_severity ON policies (enabled, severity, created_at DESC, id DESC);

   CREATE TABLE findings (
     id text COLLATE "C" PRIMARY KEY,
     title text NOT NULL,
     description text NOT NULL,
     severity text NOT NULL,
     status text NOT NULL,
     resolution jsonb,
     device_id text NOT NULL,
     policy_id text COLLATE "C" REFERENCES policies (id),
     first_seen_at text NOT NULL,
     last_seen_at text NOT NULL,
     resolved_at text,
     created_at text COLLATE "C" NOT NULL,
     updated_at text NOT NULL
   );
   CREATE INDEX findings_order ON findings (created_at DESC, id DESC);
   CREATE INDEX findings_policy_status ON findings (policy_id, status, created_at DESC, id DESC);
   CREATE INDEX findings_policy_order ON findings (policy_id, created_at DESC, id DESC);
   CREATE INDEX findings_device ON findings (device_id, created_at DESC, id DESC);
   CREATE INDEX findings_device_status ON findings (device_id, status, created_at DESC, id DESC);
   CREATE INDEX findings_status ON findings (status, created_at DESC, id DESC);
   CREATE INDEX findings_status_severity ON findings (status, severity, created_at DESC, id DESC);
   CREATE INDEX findings_severity ON findings (severity, created_at DESC, id DESC);

   CREATE TABLE webhooks (
     id text COLLATE "C" PRIMARY KEY,
     url text NOT NULL,
     events jsonb NOT NULL,
     secret text,
     description text NOT NULL,
     enabled boolean NOT NULL,
     disabled_reason text,
     last_delivery jsonb,
     created_at text COLLATE "C" NOT NULL,
     updated_at text NOT NULL
   );
   CREATE INDEX webhooks_order ON webhooks (created_at DESC, id DESC);
   CREATE INDEX webhooks_enabled ON webhooks (enabled, created_at DESC, id DESC);

   -- One row per subscribed event: the index of the events array, for the event filter's pages
   -- and the outbox's subscriber look-up; kept in step by a trigger whoever writes the webhook.
   CREATE TABLE webhook_subscriptions (
     id text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
     event text NOT NULL,
     enabled boolean NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     PRIMARY KEY (id, event)
   );
   CREATE INDEX webhook_subscriptions_event ON webhook_subscriptions (event, created_at DESC, id DESC);
   CREATE INDEX webhook_subscriptions_event_enabled ON webhook_subscriptions (event, enabled, created_at DESC, id DESC);
   CREATE FUNCTION webhooks_subscribe() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM webhook_subscriptions WHERE id = NEW.id;
     INSERT INTO webhook_subscriptions (id, event, enabled, created_at)
       SELECT DISTINCT NEW.id, e.value, NEW.enabled, NEW.created_at FROM jsonb_array_elements_text(NEW.events) e;
     RETURN NULL;
   END $$;
   CREATE TRIGGER webhooks_subscribe AFTER INSERT OR UPDATE OF events, enabled ON webhooks
     FOR EACH ROW EXECUTE FUNCTION webhooks_subscribe();

   CREATE TABLE idempotency_keys (
     owner text NOT NULL,
     key text NOT NULL,
     fingerprint text NOT NULL,
     status integer NOT NULL,
     location text NOT NULL,
     etag text NOT NULL,
     body text NOT NULL,
     created_at text COLLATE "C" NOT NULL,
     PRIMARY KEY (owner, key)
   );
   CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

   -- The body is text, not jsonb: every attempt sends exactly the bytes that were signed.
   CREATE TABLE webhook_events (
     seq bigserial UNIQUE,
     id text PRIMARY KEY,
     type text NOT NULL,
     body text NOT NULL,
     created_at text NOT NULL
   );
   CREATE TABLE webhook_deliveries (
     seq bigserial UNIQUE,
     id text PRIMARY KEY,
     event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
     webhook_id text NOT NULL,
     state text NOT NULL,
     attempts integer NOT NULL DEFAULT 0,
     due_at bigint NOT NULL,
     leased_until bigint,
     first_attempt_at bigint,
     last_status integer,
     last_error text,
     created_at bigint NOT NULL,
     finished_at bigint
   );
   CREATE INDEX webhook_deliveries_due ON webhook_deliveries (due_at) WHERE state = 'pending';
   CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (webhook_id) WHERE state = 'pending' AND leased_until IS NOT NULL;
   CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, state, finished_at);
   CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

   -- Requests per API key in the current window, shared by every instance (one row per key).
   CREATE TABLE rate_limits (
     key text PRIMARY KEY,
     hits integer NOT NULL,
     reset_at bigint NOT NULL
   );`,

  // Secret rotation: the secret a PUT replaced keeps signing deliveries (beside the new one) until
  // previous_secret_expires_at (epoch ms), so receivers can switch without refusing any.
  `ALTER TABLE webhooks ADD COLUMN previous_secret text;
   ALTER TABLE webhooks ADD COLUMN previous_secret_expires_at bigint;`,
];

/** Any number that no other user of the database locks with. */
const MIGRATION_LOCK = 0x5ec0_0001;

/** Applies the migrations not yet applied; instances starting at once take turns. */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  // Checked out, the client has no listener of the pool's: a lost connection fails the query instead of the process.
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at text NOT NULL)');
    const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
    const applied = rows[0]?.version ?? 0;
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (version <= applied) continue;
      await client.query(sql);
      await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version, new Date().toISOString()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.removeListener('error', ignore);
    client.release();
  }
}

/** Every table the application writes (the stateful mock's reset empties them). */
export const DATA_TABLES = [
  'policies',
  'findings',
  'webhooks',
  'webhook_subscriptions',
  'idempotency_keys',
  'webhook_events',
  'webhook_deliveries',
];
