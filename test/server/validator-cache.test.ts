// The validator compiles an operation's schemas once, whatever spelling of Content-Type a request uses
// (patches/README.md): a client sending a new spelling on every request (parameters a JSON body allows)
// must not make the server compile and keep schemas without end. Counted at Ajv's addSchema, where the
// validator's caches put every compiled schema, on a server that validates responses too.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ID, startTestServer, type TestServer } from './helpers.ts';

// The Ajv core the validator itself loads (every draft's class extends it; it may differ from the one
// the repository's own code imports).
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const Ajv = (validatorRequire('ajv/dist/core') as { default: { prototype: { addSchema: (...args: unknown[]) => unknown } } }).default;

let t: TestServer;
let added = 0;
const original = Ajv.prototype.addSchema;
beforeAll(async () => {
  t = await startTestServer({ validateResponses: true });
  Ajv.prototype.addSchema = function counted(this: unknown, ...args: unknown[]) {
    added++;
    return original.apply(this, args);
  };
});
afterAll(async () => {
  Ajv.prototype.addSchema = original;
  await t.close();
});

const create = (contentType: string, title: string) =>
  t.fetch('/v1/findings', {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: JSON.stringify({ title, severity: 'low', device_id: DEVICE_ID }),
  });

describe('compiled schemas per operation', () => {
  it('a new spelling of Content-Type on each request compiles nothing once the operation was served', async () => {
    expect((await create('application/json', 'first')).status).toBe(201);
    const before = added;
    // Spellings no earlier test of this process sent: the validator is shared by the servers of a process.
    const run = randomUUID();
    for (const spelling of [`application/json; v=${run}`, `Application/JSON; v=${run}`, `application/json; charset=UTF-8; x=${run}`]) {
      const response = await create(spelling, spelling);
      expect(response.status, spelling).toBe(201);
    }
    expect(added - before).toBe(0);
  });

  it('a media type the operation does not take is still refused with 415', async () => {
    const response = await create(`text/plain; v=${randomUUID()}`, 'plain');
    expect(response.status).toBe(415);
  });
});
