// The Standard Webhooks headers every delivery carries beside X-Service-Signature, judged on every
// delivery the event checks receive: `webhook-id` is the X-Service-Delivery value, `webhook-timestamp`
// Unix seconds of the attempt (within the 5-minute tolerance of the kit's clock), `webhook-signature`
// `v1,` base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's UTF-8 bytes (any
// entry matching is enough), absent without a secret. And `secret-rotation`: after a PUT replaces
// the secret, two entries, newest first, X-Service-Signature with the new secret only; a second
// replacement still two; `null` no signature at all. Signatures and the tolerance come from the
// kit's oracle: the verdict does not reuse the code the reference server signs with.

import { loadDocument } from 'secmon-api/src/document';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import { type Check, found } from '../failure.ts';
import { entryOver, SIGNATURE_HEADER, sameSignature, serviceSignature, standardEntry, toleranceSeconds } from '../oracle.ts';
import type { Delivery } from '../receiver.ts';
import type { RuleId } from '../rules/catalogue.ts';
import type { Discrepancy } from '../verify.ts';
import { labels, withResources } from './documented.ts';
import { bodyWith, crudNamed, newSecret, parseBody, sink, subscribe } from './rule-support.ts';

const RULES = [
  'delivery-headers.6',
  'delivery-headers.7',
  'delivery-headers.8',
  'rotating-a-secret.1',
  'rotating-a-secret.2',
  'rotating-a-secret.3',
  'rotating-a-secret.4',
  'schema.WebhookUpdate.2',
  'param.StandardSignatureHeader.2',
  'param.StandardIdHeader.1',
  'param.StandardTimestampHeader.1',
  'webhooks.2',
] as const;
type Rule = (typeof RULES)[number];

export const secretRotationCheck = defineCheck({
  name: 'secret-rotation',
  column: 'rotate',
  rules: RULES,
  needs: { events: true },
  exercisesSuccess: true,
  cost: { fixed: 11, perCase: 0 },
  instances: (model, _options) =>
    withResources(model, (found) => ({
      subjects: labels(found.hook('finding.created'), found.webhooks.update.label),
      run: (ctx, check) => secretRotation(ctx, check),
    })),
});

export const TOLERANCE_SECONDS = toleranceSeconds(loadDocument());

const header = (delivery: Delivery, name: string) => {
  const value = delivery.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The `webhook-timestamp` as a number, or undefined when it is not Unix seconds. */
export function timestampOf(delivery: Delivery): number | undefined {
  const text = header(delivery, 'webhook-timestamp');
  return text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

/** The space-separated entries of `webhook-signature` (empty when absent). */
export function signatureEntries(delivery: Delivery): string[] {
  return (header(delivery, 'webhook-signature') ?? '').split(' ').filter((entry) => entry !== '');
}

/** Whether `entry` is the `v1,` signature of `signed` (by default `{webhook-id}.{webhook-timestamp}.{raw body}`) with `secret`. */
export function entrySignedWith(delivery: Delivery, entry: string, secret: string, signed?: Buffer): boolean {
  const id = header(delivery, 'webhook-id') ?? '';
  const time = header(delivery, 'webhook-timestamp') ?? '';
  return sameSignature(entry, signed ? entryOver(signed, secret) : standardEntry(id, time, delivery.raw, secret));
}

/** The body as JSON.stringify writes it: what a sender that signs before re-serialising signed. */
const reserialised = (delivery: Delivery): Buffer | undefined => {
  try {
    const compact = Buffer.from(JSON.stringify(JSON.parse(delivery.raw.toString('utf8'))));
    return compact.equals(delivery.raw) ? undefined : compact;
  } catch {
    return undefined;
  }
};

/** X-Service-Signature of one delivery: `sha256=` lowercase hex HMAC of the raw body with the secret, absent without one. */
export function signatureViolations(delivery: Delivery, signature: string | null, secret: string | undefined): Discrepancy[] {
  if (secret === undefined) {
    return signature === null
      ? []
      : found({
          rule: ['param.SignatureHeader.2', 'delivery-headers.1', 'verifying-signatures.15'],
          observed: `a webhook without a secret got ${SIGNATURE_HEADER}`,
          details: [signature],
        });
  }
  const offered = signature ?? undefined;
  if (sameSignature(offered, serviceSignature(delivery.raw, secret))) return [];
  const other = reserialised(delivery);
  // Signed with the webhook's secret, every delivery; unsigned, although the webhook says it has one.
  const rules: RuleId[] = [
    'delivery-headers.1',
    'param.SignatureHeader.1',
    'verifying-signatures.12',
    signature === null ? 'schema.Webhook.2' : 'schema.WebhookSecret.1',
  ];
  if (other && sameSignature(offered, serviceSignature(other, secret))) rules.push('verifying-signatures.1');
  const message =
    signature === null
      ? `${SIGNATURE_HEADER} is missing on a signed webhook`
      : `${SIGNATURE_HEADER} does not verify against the raw body and the webhook's secret (sha256= and the lowercase hex HMAC-SHA256)`;
  const details = signature === null ? [] : [`${SIGNATURE_HEADER}: ${signature}`];
  return rules.map((rule) => ({ aspect: 'signature', message, details, rule }));
}

/** What a `webhook-signature` entry that does not verify was signed over instead, as the rules it then breaks. */
function misSigned(delivery: Delivery, entries: string[], secret: string): RuleId[] {
  const id = header(delivery, 'webhook-id') ?? '';
  const time = header(delivery, 'webhook-timestamp') ?? '';
  const over = (prefix: string, body = delivery.raw) => Buffer.concat([Buffer.from(prefix), body]);
  const other = reserialised(delivery);
  const signs = (content: Buffer) => entries.some((entry) => entrySignedWith(delivery, entry, secret, content));
  return [
    ...(signs(over(`${time}.`)) || signs(delivery.raw) ? (['param.StandardIdHeader.2'] as const) : []),
    ...(signs(over(`${id}.`)) || signs(delivery.raw) ? (['param.StandardTimestampHeader.2'] as const) : []),
    ...(other && signs(over(`${id}.${time}.`, other)) ? (['verifying-signatures.1'] as const) : []),
  ];
}

/** `webhook-id` and `webhook-timestamp` of one delivery, whatever its webhook's secret. */
export function idAndTimeViolations(delivery: Delivery): Discrepancy[] {
  const violations: Discrepancy[] = [];
  const id = header(delivery, 'webhook-id');
  const deliveryId = header(delivery, 'x-service-delivery');
  if (id === undefined || id !== deliveryId) {
    const message = `webhook-id is ${JSON.stringify(id ?? null)}, X-Service-Delivery ${JSON.stringify(deliveryId ?? null)}: they must be the same value`;
    violations.push(
      ...found({ rule: 'param.StandardIdHeader.1', observed: message }),
      ...found({ rule: 'delivery-headers.6', observed: message }),
    );
  }
  const timestamp = timestampOf(delivery);
  const received = Math.floor(delivery.receivedAt / 1000);
  const timeRules = ['param.StandardTimestampHeader.1', 'delivery-headers.7'] as const;
  if (timestamp === undefined) {
    const message = `webhook-timestamp is ${JSON.stringify(header(delivery, 'webhook-timestamp') ?? null)}, not Unix seconds`;
    violations.push(...found({ rule: timeRules, observed: message }));
  } else if (Math.abs(received - timestamp) > TOLERANCE_SECONDS) {
    // A receiver following the document refuses it: the attempt's time must be the sending time.
    const message = `webhook-timestamp ${timestamp} is ${received - timestamp} s from the kit's clock when it arrived: a receiver refuses anything more than ${TOLERANCE_SECONDS} s away`;
    const details = [`received at ${new Date(delivery.receivedAt).toISOString()}, stamped ${new Date(timestamp * 1000).toISOString()}`];
    violations.push(...found({ rule: timeRules, observed: message, details }));
  }
  return violations;
}

/** Violations of the Standard Webhooks headers of one delivery; `secret` undefined: the webhook has none. */
export function standardHeaderViolations(delivery: Delivery, secret: string | undefined): Discrepancy[] {
  const violations = idAndTimeViolations(delivery);
  const entries = signatureEntries(delivery);
  if (secret === undefined) {
    if (header(delivery, 'webhook-signature') !== undefined)
      violations.push(
        ...found({
          rule: ['param.StandardSignatureHeader.3', 'delivery-headers.8', 'verifying-signatures.15'],
          observed: 'a webhook without a secret got webhook-signature',
          details: [String(header(delivery, 'webhook-signature'))],
        }),
      );
  } else if (entries.length === 0) {
    violations.push(...found({ rule: 'delivery-headers.8', observed: 'webhook-signature is missing on a signed webhook' }));
  } else if (!entries.some((entry) => entrySignedWith(delivery, entry, secret))) {
    const rules: RuleId[] = [
      'param.StandardSignatureHeader.1',
      'verifying-signatures.5',
      'delivery-headers.8',
      ...misSigned(delivery, entries, secret),
    ];
    const message =
      "no webhook-signature entry is the v1, base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{raw body} with the webhook's secret";
    violations.push(...found({ rule: rules, observed: message, details: [`webhook-signature: ${entries.join(' ')}`] }));
  }
  return violations;
}

const findingOf = (delivery: Delivery) => parseBody(delivery)?.data?.finding_id;

/**
 * `secret-rotation`: a webhook whose secret a PUT replaced signs with both, the new one first, and
 * X-Service-Signature with the new one only; replaced again, the first secret is gone (two
 * entries: the two newest); removed, no signature at all.
 */
export async function secretRotation(ctx: KitContext, check: Check<Rule>): Promise<{ note: string }> {
  const [webhooks, findings] = [crudNamed(ctx, 'webhooks'), crudNamed(ctx, 'findings')];
  const subject = ctx.model.webhooks.find((w) => w.event === 'finding.created')?.label ?? 'webhook finding.created';
  const target = await sink(ctx, 'rotation');
  const secrets = [newSecret(), newSecret(), newSecret()] as const;
  const hook = await subscribe(ctx, check, target.url, ['finding.created'], { secret: secrets[0] });
  let waitedMs = 0;
  /** PUTs `secret`, causes a finding.created and returns its delivery to this webhook. */
  const deliveryAfter = async (secret: string | null, why: string): Promise<Delivery> => {
    const put = await ctx.send(webhooks.update, { id: hook.id, body: { url: hook.json.url, events: hook.json.events, secret } });
    check.conform(webhooks.update, put, { statuses: [200] }, why);
    const { id } = await ctx.create(findings, check, await bodyWith(ctx, findings.create, { policy_id: null }));
    const waited = await target.waitFor((ds) => ds.some((d) => findingOf(d) === id), `the finding.created of ${id} after a PUT ${why}`);
    waitedMs += waited.waitedMs;
    const delivery = target.deliveries().find((d) => findingOf(d) === id);
    if (!delivery)
      check.fail({
        at: subject,
        rule: 'webhooks.2',
        observed: `no finding.created reached the webhook after a PUT ${why}`,
        details: [`the kit waited ${waited.waitedMs} ms`],
      });
    const [headerFault] = idAndTimeViolations(delivery);
    if (headerFault) check.failAll({ at: subject, found: [headerFault] });
    return delivery;
  };
  const judge = (delivery: Delivery, newest: string, previous: string, why: string, countRule: Rule) => {
    const entries = signatureEntries(delivery);
    const shown = [`webhook-signature: ${entries.join(' ')}`];
    if (entries.length !== 2)
      check.fail({
        at: subject,
        rule: countRule,
        observed: `after a PUT ${why}, webhook-signature has ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, not one per valid secret (2)`,
        details: shown,
      });
    if (!entrySignedWith(delivery, entries[0]!, newest) || !entrySignedWith(delivery, entries[1]!, previous)) {
      check.fail({
        at: subject,
        rule: 'param.StandardSignatureHeader.2',
        observed: `after a PUT ${why}, the entries are not the new secret's then the replaced one's (newest first)`,
        details: shown,
      });
    }
    if (!sameSignature(header(delivery, SIGNATURE_HEADER.toLowerCase()), serviceSignature(delivery.raw, newest))) {
      check.fail({
        at: subject,
        rule: 'rotating-a-secret.2',
        observed: `after a PUT ${why}, ${SIGNATURE_HEADER} is not the new secret's`,
        details: [`${SIGNATURE_HEADER}: ${String(header(delivery, SIGNATURE_HEADER.toLowerCase()))}`],
      });
    }
  };
  judge(await deliveryAfter(secrets[1], 'replacing the secret'), secrets[1], secrets[0], 'replacing the secret', 'rotating-a-secret.1');
  judge(
    await deliveryAfter(secrets[2], 'replacing the secret again'),
    secrets[2],
    secrets[1],
    'replacing the secret again (the first one no longer valid)',
    'rotating-a-secret.3',
  );
  const unsigned = await deliveryAfter(null, 'with secret: null');
  const left = ['webhook-signature', SIGNATURE_HEADER.toLowerCase()].filter((name) => header(unsigned, name) !== undefined);
  if (left.length > 0)
    check.fail({
      at: subject,
      rule: 'rotating-a-secret.4',
      observed: `after a PUT with secret: null the delivery still carries ${left.join(' and ')}`,
      details: left.map((name) => `${name}: ${String(header(unsigned, name))}`),
    });
  return { note: `the kit waited ${waitedMs} ms for three deliveries` };
}
