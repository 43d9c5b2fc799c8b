// The example-event sender against a loopback receiver: every event type arrives with the headers
// the document describes, a body valid against its webhook schema and a verifiable signature.
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer, listWebhookOperations, loadDocument, resolveRef } from 'secmon-api/src/document';
import { EVENT_TYPES, eventSchemaPointer, validateEvent } from 'secmon-api/src/events';
import { createSchemaValidator } from 'secmon-api/src/schema-validator';
import { verifySignature } from 'secmon-api/src/signing';
import { verifyWebhook } from 'secmon-api/src/verify-webhook';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { USER_AGENT } from '../../../common/delivery-headers.ts';
import { buildDeliveries, deliverAll, delivered, EventSelectionError, eventExamples } from '../src/events.ts';

const SECRET = 'whsec_test_6b1f0c9e2d8a7f35';
const doc = loadDocument();
const validator = createSchemaValidator(doc);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

let receiver: Server;
let url: string;
let received: Received[] = [];
let answer: (event: string | undefined) => number = () => 204;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) });
      res.statusCode = answer(req.headers['x-service-event'] as string | undefined);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/secmon`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(() => {
  received = [];
  answer = () => 204;
});

/** Validates a received header against the webhook operation's documented header parameter. */
function headerViolations(event: string, headers: IncomingHttpHeaders): string[] {
  const operation = listWebhookOperations(doc).find(({ path }) => path === event)!.operation;
  return (operation.parameters ?? []).flatMap((parameter, index) => {
    const resolved = resolveRef<OpenAPIV3_1.ParameterObject>(doc, parameter);
    const value = headers[resolved.name.toLowerCase()];
    if (value === undefined) return resolved.required ? [`${resolved.name} is missing`] : [];
    const base = '$ref' in parameter ? parameter.$ref : `#/webhooks/${escapePointer(event)}/post/parameters/${index}`;
    const result = validator.validate(`${base}/schema`, value);
    return result.valid ? [] : [`${resolved.name}: ${result.message}`];
  });
}

describe('signed deliveries', () => {
  it('delivers every event type with documented headers, a valid body and a verifiable signature', async () => {
    const results = await deliverAll(url, buildDeliveries({ secret: SECRET }));
    expect(results.every(delivered)).toBe(true);
    expect(received.map((delivery) => delivery.headers['x-service-event'])).toEqual([...EVENT_TYPES]);
    for (const { headers, raw, path } of received) {
      const event = headers['x-service-event'] as string;
      expect(path).toBe('/hooks/secmon');
      expect(headers['content-type']).toBe('application/json');
      expect(headers['user-agent']).toBe(USER_AGENT);
      expect(headerViolations(event, headers), event).toEqual([]);
      const body: unknown = JSON.parse(raw.toString('utf8'));
      expect(validator.validate(eventSchemaPointer(event as (typeof EVENT_TYPES)[number]), body).valid).toBe(true);
      expect(validateEvent(body)).toEqual({ valid: true });
      expect((body as { event: string }).event).toBe(event);
      expect(verifySignature(raw, headers['x-service-signature'], SECRET), event).toBe(true);
      expect(verifySignature(raw, headers['x-service-signature'], 'whsec_another_secret_0000'), event).toBe(false);
    }
  });

  it('sends the exact bytes of the document example (the worked signature example verifies)', async () => {
    const [request] = buildDeliveries({ events: ['finding.created'], example: 'sshRootLogin', secret: 'whsec_2f6c1e8a9b7d4c3e5f1a0b9c' });
    await deliverAll(url, [request!]);
    // The signature the document's "Verifying signatures" section prints for this body and secret.
    expect(received[0]!.headers['x-service-signature']).toBe('sha256=b7b745782abc37fa2f4b7037178649216f355c165f58a84c4d06e60b7f8d1f0f');
    // The timestamped one signs the attempt's id and time too, so it verifies as the library checks it.
    const { headers, raw } = received[0]!;
    expect(verifyWebhook(raw, headers, 'whsec_2f6c1e8a9b7d4c3e5f1a0b9c').event).toBe('finding.created');
  });

  it('gives every delivery its own UUID and uses the given webhook id', async () => {
    await deliverAll(url, buildDeliveries({ secret: SECRET, webhookId: 'whk_01jc0000000000000000000000' }));
    const ids = received.map((delivery) => delivery.headers['x-service-delivery']);
    expect(new Set(ids).size).toBe(EVENT_TYPES.length);
    for (const delivery of received) expect(delivery.headers['x-service-webhook-id']).toBe('whk_01jc0000000000000000000000');
  });

  it('sends no signature header without a secret', async () => {
    await deliverAll(url, buildDeliveries({ events: ['device.connected'] }));
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['x-service-signature']).toBeUndefined();
  });
});

describe('example selection', () => {
  it('offers every named example of every event, each valid against its schema', () => {
    const examples = eventExamples(doc);
    expect(new Set(examples.map((example) => example.eventType))).toEqual(new Set(EVENT_TYPES));
    for (const example of examples)
      expect(validateEvent(JSON.parse(example.body)), `${example.eventType} ${example.name}`).toEqual({ valid: true });
  });

  it('sends a named example when asked and refuses a name the event does not have', async () => {
    const [second] = eventExamples(doc)
      .filter((example) => example.eventType === 'finding.created')
      .slice(1);
    expect(second).toBeDefined();
    await deliverAll(url, buildDeliveries({ events: ['finding.created'], example: second!.name }));
    expect(received[0]!.raw.toString('utf8')).toBe(second!.body);
    expect(() => buildDeliveries({ events: ['scan.completed'], example: 'noSuchExample' })).toThrow(EventSelectionError);
  });
});

describe('reporting what the receiver answered', () => {
  it('reports statuses, counts non-2xx as not delivered and does not follow redirects', async () => {
    answer = (event) => (event === 'scan.completed' ? 410 : event === 'device.connected' ? 302 : 200);
    const results = await deliverAll(url, buildDeliveries({}));
    const byEvent = Object.fromEntries(results.map((result) => [result.eventType, result]));
    expect(byEvent['scan.completed']).toMatchObject({ status: 410 });
    expect(byEvent['device.connected']).toMatchObject({ status: 302 });
    expect(received).toHaveLength(EVENT_TYPES.length);
    expect(
      results
        .filter(delivered)
        .map((result) => result.eventType)
        .sort(),
    ).toEqual(EVENT_TYPES.filter((type) => type !== 'scan.completed' && type !== 'device.connected').sort());
  });

  it('reports a refused connection as an error instead of throwing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const [result] = await deliverAll(`http://127.0.0.1:${port}/`, buildDeliveries({ events: ['device.connected'] }));
    expect(result).toMatchObject({ error: 'ECONNREFUSED' });
    expect(delivered(result!)).toBe(false);
  });
});

describe('npm run mock:events', () => {
  const cli = fileURLToPath(new URL('../src/events-cli.ts', import.meta.url));
  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('sends the chosen event signed and prints the receiver answer', async () => {
    const { code, stdout } = await run(['--url', url, '--secret', SECRET, '--event', 'finding.resolved']);
    expect(code).toBe(0);
    expect(received).toHaveLength(1);
    expect(verifySignature(received[0]!.raw, received[0]!.headers['x-service-signature'], SECRET)).toBe(true);
    expect(stdout).toMatch(/finding\.resolved\s+\S+\s+[0-9a-f-]{36}\s+204\s+\d+/);
    expect(stdout).toContain('all 1 delivered');
  });

  it('exits 1 when the receiver does not answer 2xx', async () => {
    answer = () => 500;
    const { code, stdout } = await run(['--url', url]);
    expect(code).toBe(1);
    expect(received).toHaveLength(EVENT_TYPES.length);
    expect(stdout).toContain(`${EVENT_TYPES.length} of ${EVENT_TYPES.length} not delivered`);
  });

  it('refuses bad arguments with what is wrong, a pointer to --help and exit code 2', async () => {
    for (const args of [
      [],
      ['--url', 'ftp://example.com'],
      ['--url', url, '--event', 'finding.deleted'],
      ['--url', url, '--webhook-id', 'whk_1'],
    ]) {
      const { code, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^secmon-events: .+\nRun 'secmon-events --help' for its usage\.\n$/);
    }
    expect(received).toHaveLength(0);
  });
});
