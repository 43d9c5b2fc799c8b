// `npm run mock -- --dynamic`: generated data that still validates against the document, the same
// on every request thanks to the fixed seed.

import { loadDocument } from 'secmon-api/src/document';
import { createSchemaValidator } from 'secmon-api/src/schema-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMock } from '../src/prism.ts';
import { exampleRequests, mediaTypeOf } from './operations.ts';

const doc = loadDocument();
const validator = createSchemaValidator(doc);
const operations = exampleRequests(doc);
const AUTH = { authorization: 'Bearer mock-test-key' };

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ dynamic: true });
});
afterAll(async () => {
  await mock?.stop();
});

async function call(operation: (typeof operations)[number]) {
  const response = await fetch(mock.url + operation.path, {
    method: operation.method,
    headers: operation.body === undefined ? AUTH : { ...AUTH, 'content-type': 'application/json' },
    ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
  });
  return { response, text: await response.text() };
}

it.each(operations)('$label answers generated data that validates against the document', async (operation) => {
  const { response, text } = await call(operation);
  expect(response.status).toBeLessThan(300);
  if (text === '') {
    // Only a documented no-content answer may come without a body.
    expect(operation.statuses, `${response.status} without a body`).toContain(String(response.status));
    expect(response.status).toBe(204);
    return;
  }
  const media = operation.responses.get(`${response.status} ${mediaTypeOf(response.headers.get('content-type'))}`);
  expect(media).toBeDefined();
  const result = validator.validate(media!.schemaPointer, JSON.parse(text));
  expect(result.valid, result.valid ? '' : result.message).toBe(true);
});

it('generates instead of returning the examples, and the seed makes it repeatable', async () => {
  const listWebhooks = operations.find((operation) => operation.operationId === 'listWebhooks')!;
  const first = await call(listWebhooks);
  const second = await call(listWebhooks);
  expect(first.text).toBe(second.text);
  const example = listWebhooks.responses.get('200 application/json')!.examples[0]!.value;
  expect(JSON.parse(first.text)).not.toEqual(example);
  const { data } = JSON.parse(first.text) as { data: { url: string }[] };
  expect(data.length).toBeGreaterThan(0);
  for (const webhook of data) expect(URL.canParse(webhook.url)).toBe(true);
});
