// One LISTEN connection per store: a committed enqueue anywhere on the database wakes this
// instance's dispatcher at once, instead of its next timer. The connection is opened on the first
// subscription and reopened (with a growing pause) if it drops; the timer covers the gap.
import pg from 'pg';

export class OutboxListener {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #listeners = new Set<() => void>();
  #client: pg.Client | undefined;
  #closed = false;
  #retryMs = 100;
  #reconnect: NodeJS.Timeout | undefined;

  constructor(config: pg.ClientConfig, channel: string) {
    this.#config = config;
    this.#channel = channel;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    if (!this.#client && !this.#reconnect) void this.#connect();
    return () => this.#listeners.delete(listener);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client(this.#config);
    this.#client = client;
    const retry = () => {
      if (this.#client !== client || this.#closed) return;
      this.#client = undefined;
      client.end().catch(() => undefined);
      this.#reconnect = setTimeout(() => {
        this.#reconnect = undefined;
        void this.#connect();
      }, this.#retryMs);
      this.#reconnect.unref();
      this.#retryMs = Math.min(this.#retryMs * 2, 5000);
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => this.#listeners.forEach((listener) => listener()));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.#channel)}`);
      this.#retryMs = 100;
      // Whatever was queued while the connection was down.
      this.#listeners.forEach((listener) => listener());
    } catch {
      retry();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnect);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
