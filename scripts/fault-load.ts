// Database faults under load, for the fault test (npm test) and the fault benchmark: reference
// server processes on one database (PostgreSQL, or one on a SQLite file), a receiver subscribed to finding.created, a steady
// stream of creates spread round-robin over the instances and /readyz probed on each, every answer
// recorded with its time. What was acknowledged is then read back through the API and looked for
// at the receiver.
import { parseEvent } from '../packages/api/src/events.ts';
import { startReceiver, type TestReceiver } from './receiver.ts';
import { type ServerProcess, spawnServer } from './server-process.ts';
import { waitUntil } from './wait.ts';

const KEY = 'fault-load-key-7d1e4a';
const DEVICE_ID = 'dev_01jbz2m4n6p8q0r2s4t6v8w0x2';
/** No request is left waiting longer than this, whatever the server does. */
const CLIENT_TIMEOUT_MS = 60_000;

export interface Answer {
  instance: number;
  /** Date.now() when the request was sent. */
  at: number;
  ms: number;
  /** 0 when no answer came (refused, reset, the client's time-out). */
  status: number;
  problemType?: string;
  retryAfter?: string | null;
  id?: string;
}

export interface FaultLoadOptions {
  database: string;
  instances: number;
  createsPerSecond: number;
  /** Extra environment of the server processes (time-outs). */
  env?: Record<string, string>;
}

export interface Acknowledged {
  acknowledged: number;
  /** Acknowledged creates the API does not find. */
  missingRows: string[];
  /** Acknowledged creates whose event no receiver got (after waiting). */
  undelivered: string[];
}

export class FaultLoad {
  readonly creates: Answer[] = [];
  readonly readiness: Answer[] = [];
  readonly servers: ServerProcess[];
  readonly #receiver: TestReceiver;
  readonly #options: FaultLoadOptions;
  #running = false;
  readonly #inFlight = new Set<Promise<void>>();
  #loops: Promise<void>[] = [];

  private constructor(options: FaultLoadOptions, servers: ServerProcess[], receiver: TestReceiver) {
    this.#options = options;
    this.servers = servers;
    this.#receiver = receiver;
  }

  static async start(options: FaultLoadOptions): Promise<FaultLoad> {
    const receiver = await startReceiver(200);
    const env = {
      SECMON_DB: options.database,
      SECMON_API_KEYS: `${KEY}:read+write`,
      // Counted in the database, so the rate-limit store meets the faults too; never reached.
      SECMON_RATE_LIMIT: '1000000',
      SECMON_RETRY_SCALE: '0.001',
      SECMON_DELIVERY_TIMEOUT_MS: '2000',
      SECMON_DELIVERY_LEASE_MS: '4000',
      ...options.env,
    };
    // One after the other: instances starting at once would race for the migrations' lock.
    const servers: ServerProcess[] = [];
    for (let index = 0; index < options.instances; index++) servers.push(await spawnServer(env));
    const load = new FaultLoad(options, servers, receiver);
    const response = await fetch(`${servers[0]!.url}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['finding.created'] }),
    });
    if (response.status !== 201) throw new Error(`creating the webhook failed: ${response.status} ${await response.text()}`);
    return load;
  }

  /** Instances whose process is still running. */
  alive(): boolean[] {
    return this.servers.map((server) => server.child.exitCode === null && server.child.signalCode === null);
  }

  /** Starts the creates and the readiness probes (every 250 ms on each instance). */
  startLoad(): void {
    this.#running = true;
    const interval = 1000 / this.#options.createsPerSecond;
    let turn = 0;
    const creates = (async () => {
      for (let sent = 0; this.#running; sent++) {
        const request = this.#create(turn++ % this.servers.length, sent);
        this.#inFlight.add(request);
        void request.finally(() => this.#inFlight.delete(request));
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    })();
    const probes = this.servers.map(async (_, instance) => {
      while (this.#running) {
        await this.#probe(instance);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    this.#loops = [creates, ...probes];
  }

  /** Stops sending and waits for every request in flight. */
  async stopLoad(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#loops);
    await Promise.all(this.#inFlight);
  }

  async #create(instance: number, index: number): Promise<void> {
    const at = Date.now();
    const started = performance.now();
    const answer: Answer = { instance, at, ms: 0, status: 0 };
    try {
      const response = await fetch(`${this.servers[instance]!.url}/v1/findings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Finding under fault ${index}`, severity: 'low', device_id: DEVICE_ID }),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const body = (await response.json()) as { id?: string; type?: string };
      Object.assign(answer, { status: response.status, retryAfter: response.headers.get('retry-after') });
      if (response.status === 201) answer.id = body.id;
      else answer.problemType = body.type;
    } catch {
      // No answer: status stays 0.
    }
    answer.ms = performance.now() - started;
    this.creates.push(answer);
  }

  async #probe(instance: number): Promise<void> {
    const at = Date.now();
    const started = performance.now();
    let status = 0;
    try {
      const response = await fetch(`${this.servers[instance]!.url}/readyz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
      status = response.status;
      await response.body?.cancel();
    } catch {
      // No answer.
    }
    this.readiness.push({ instance, at, ms: performance.now() - started, status });
  }

  /** The causes the instances logged for database faults ("statement timeout", ...). */
  causes(): string[] {
    return this.servers.flatMap((server) =>
      server.lines
        .filter((line) => line.includes('"database unavailable: ') || line.includes('"database full: '))
        .map((line) => String((JSON.parse(line) as { cause?: unknown }).cause)),
    );
  }

  /** Whether every acknowledged create is stored and its event delivered (waiting up to `deliveryWaitMs`). */
  async checkAcknowledged(deliveryWaitMs = 30_000): Promise<Acknowledged> {
    const ids = this.creates.flatMap((answer) => (answer.id ? [answer.id] : []));
    const stored = new Set<string>();
    for (const id of ids) {
      const response = await fetch(`${this.servers[0]!.url}/v1/findings/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      await response.body?.cancel();
      if (response.status === 200) stored.add(id);
    }
    const delivered = () =>
      new Set(this.#receiver.receipts.map((receipt) => (parseEvent(receipt.body) as { data: { finding_id: string } }).data.finding_id));
    await waitUntil(() => ids.every((id) => delivered().has(id)), deliveryWaitMs);
    const got = delivered();
    return { acknowledged: ids.length, missingRows: ids.filter((id) => !stored.has(id)), undelivered: ids.filter((id) => !got.has(id)) };
  }

  async close(): Promise<void> {
    this.#running = false;
    await Promise.all(this.servers.map((server) => server.kill('SIGTERM')));
    await this.#receiver.close();
  }
}

/** The p-th percentile (0–100) of `values`, or 0 when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
