// The receiver a webhook's docs show: an Express route that verifies the raw body with
// `secmon-api/webhooks`, then reads the first fields of the event's data, built from the document.
import type { OpenAPIV3_1 } from 'openapi-types';
import { type OpenApiDocument, type OperationRef, resolveRef } from '../../packages/api/src/document.ts';
import { CLIENT_PACKAGE, WEBHOOK_SECRET_VARIABLE } from './sample-names.ts';

export function receiverSample(doc: OpenApiDocument, { path: type, operation }: OperationRef): string {
  type Schema = { required?: string[]; properties?: Record<string, unknown> };
  const body = resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, operation.requestBody!);
  const event = resolveRef<Schema>(doc, body.content['application/json']!.schema as Schema);
  const data = resolveRef<Schema>(doc, event.properties!.data as Schema);
  const fields = (data.required ?? Object.keys(data.properties ?? {})).slice(0, 3);
  const status = Object.keys(operation.responses ?? {}).find((code) => /^2\d\d$/.test(code)) ?? '204';
  return [
    `import express from 'express';`,
    `import { verifyWebhook, WebhookVerificationError } from '${CLIENT_PACKAGE}/webhooks';`,
    '',
    `const secret = process.env.${WEBHOOK_SECRET_VARIABLE};`,
    `if (!secret) throw new Error('Set ${WEBHOOK_SECRET_VARIABLE} to the secret of the webhook');`,
    '',
    'const app = express();',
    '// express.raw, not express.json: the signature covers the exact bytes (a parsed body is a TypeError).',
    `app.post('/secmon', express.raw({ type: 'application/json' }), (req, res) => {`,
    '  let event;',
    '  try {',
    '    // webhook-signature (5-minute tolerance), then the body validated against the document.',
    '    event = verifyWebhook(req.body, req.headers, secret);',
    '  } catch (error) {',
    '    if (!(error instanceof WebhookVerificationError)) throw error;',
    `    res.status(error.reason === 'invalid-event' ? 400 : 401).send(error.reason);`,
    '    return;',
    '  }',
    `  if (event.event === '${type}') {`,
    `    console.log(${fields.map((field) => `event.data.${field}`).join(', ')});`,
    '  }',
    `  res.sendStatus(${status});`,
    '});',
    'app.listen(4000);',
  ].join('\n');
}
