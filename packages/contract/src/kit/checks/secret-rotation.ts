// `secret-rotation`: after a PUT replaces the secret, `webhook-signature` has two entries, newest
// first, and X-Service-Signature the new secret's only; a second replacement still two; `null` no
// signature at all; a new secret after that one entry, its own (no removed secret signs again).
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { SIGNATURE_HEADER, sameSignature, serviceSignature } from '../oracle.ts';
import type { Delivery } from '../receiver.ts';
import { labels, withResources } from './shared/documented.ts';
import { bodyWith, crudNamed, newSecret, parseBody, sink, subscribe } from './shared/rule-support.ts';
import { entrySignedWith, header, idAndTimeViolations, signatureEntries } from './shared/signatures.ts';

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
  cost: { fixed: 13, perCase: 0 },
  instances: (model) =>
    withResources(model, (found) => ({
      subjects: labels(found.hook('finding.created'), found.webhooks.update.label),
      run: (ctx, check) => secretRotation(ctx, check),
    })),
});

const findingOf = (delivery: Delivery) => parseBody(delivery)?.data?.finding_id;

/**
 * `secret-rotation`: a webhook whose secret a PUT replaced signs with both, the new one first, and
 * X-Service-Signature with the new one only; replaced again, the first secret is gone (two
 * entries: the two newest); removed, no signature at all; set again, only the new one signs.
 */
async function secretRotation(ctx: KitContext, check: Check<Rule>): Promise<{ note: string }> {
  const [webhooks, findings] = [crudNamed(ctx, 'webhooks'), crudNamed(ctx, 'findings')];
  const subject = ctx.model.webhooks.find((w) => w.event === 'finding.created')?.label ?? 'webhook finding.created';
  const target = await sink(ctx, 'rotation');
  const secrets = [newSecret(), newSecret(), newSecret(), newSecret()] as const;
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
    const [headerFault] = idAndTimeViolations(check, delivery);
    if (headerFault) check.failAll({ at: subject, found: [headerFault] });
    return delivery;
  };
  /** The delivery must be signed with exactly the secrets `valid` (newest first), X-Service-Signature with the newest only. */
  const judge = (delivery: Delivery, valid: readonly string[], why: string, countRule: Rule) => {
    const entries = signatureEntries(delivery);
    const shown = [`webhook-signature: ${entries.join(' ')}`];
    if (entries.length !== valid.length)
      check.fail({
        at: subject,
        rule: countRule,
        observed: `after a PUT ${why}, webhook-signature has ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, not one per valid secret (${valid.length})`,
        details: shown,
      });
    if (valid.some((secret, i) => entries[i] === undefined || !entrySignedWith(delivery, entries[i], secret))) {
      check.fail({
        at: subject,
        rule: 'param.StandardSignatureHeader.2',
        observed: `after a PUT ${why}, the entries are not ${valid.length === 1 ? "the new secret's" : "the new secret's then the replaced one's (newest first)"}`,
        details: shown,
      });
    }
    if (!sameSignature(header(delivery, SIGNATURE_HEADER.toLowerCase()), serviceSignature(delivery.raw, valid[0]!))) {
      check.fail({
        at: subject,
        rule: 'rotating-a-secret.2',
        observed: `after a PUT ${why}, ${SIGNATURE_HEADER} is not the new secret's`,
        details: [`${SIGNATURE_HEADER}: ${String(header(delivery, SIGNATURE_HEADER.toLowerCase()))}`],
      });
    }
  };
  judge(await deliveryAfter(secrets[1], 'replacing the secret'), [secrets[1], secrets[0]], 'replacing the secret', 'rotating-a-secret.1');
  judge(
    await deliveryAfter(secrets[2], 'replacing the secret again'),
    [secrets[2], secrets[1]],
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
  // Removal ended both secrets at once: a secret set after it replaces none, so it signs alone.
  const why = 'setting a new secret after removing it (no removed secret signs again)';
  judge(await deliveryAfter(secrets[3], why), [secrets[3]], why, 'rotating-a-secret.4');
  return { note: `the kit waited ${waitedMs} ms for four deliveries` };
}
