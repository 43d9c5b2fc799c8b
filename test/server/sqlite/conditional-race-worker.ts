// One racer of conditional-writes.test.ts: its own connection to the shared file, waits at the
// gate, then replaces the policy with the ETag every racer was given. After reading the current
// policy it lingers until every racer has read (at most 50 ms): a check made outside the write's
// transaction would then let every racer through; inside it, the reads take turns.
import { parentPort, workerData } from 'node:worker_threads';
import type { Repository } from '../../../packages/core/src/port.ts';
import { core } from '../../../server/platform.ts';
import { openDatabase } from '../../../server/store/sqlite/database.ts';
import { sqliteStore } from '../../../server/store/sqlite/store.ts';
import type { Store } from '../../../server/store/store.ts';

const { path, id, etag, gate, racer, racers } = workerData as {
  path: string;
  id: string;
  etag: string;
  gate: Int32Array;
  racer: number;
  racers: number;
};
const LINGER_MS = 50;
// Twenty connections take turns at the write lock, each holding it while it lingers: the last one
// waits for all the others, longer than the server's short lock wait (one process holds the file).
const db = openDatabase(path);
db.exec('PRAGMA busy_timeout = 30000');
const store = sqliteStore(db);
parentPort!.postMessage('ready');
Atomics.wait(gate, 0, 0);
const readAndLinger = async (tx: Repository) => {
  const current = (await tx.policies.get(id))!;
  const deadline = Date.now() + LINGER_MS;
  // gate[1] counts racers that have read.
  Atomics.add(gate, 1, 1);
  while (Atomics.load(gate, 1) < racers && Date.now() < deadline) Atomics.wait(gate, 1, Atomics.load(gate, 1), 5);
  Atomics.notify(gate, 1);
  return current;
};
// The core's replace, its read of the current policy lingering as above.
const lingering: Repository = {
  ...store,
  transaction: (fn) => store.transaction((tx: Store) => fn({ ...tx, policies: { ...tx.policies, get: () => readAndLinger(tx) } })),
};
const outcome = await core.policies.replace(lingering, id, { name: `Racer ${racer}`, severity: 'high' }, etag, new Date());
await store.close();
parentPort!.postMessage('error' in outcome ? outcome.error.kind : 'written');
