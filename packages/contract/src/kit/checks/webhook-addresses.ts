// `webhook-addresses`: a webhook URL whose host is an IP literal. An IPv6 literal the service
// accepts is delivered to like an IPv4 one (the kit listens on [::1] when the target runs on this
// machine); an address the service refuses is refused in its IPv4-mapped IPv6 spelling too, on
// create and on update, since a refusal is of the address a URL targets, however it is written;
// and a service that refuses `http` where it takes `https` (the document's production mode) refuses
// an address of every class the document lists for production.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange } from '../http.ts';
import { type Receiver, startReceiver } from '../receiver.ts';
import { labels, withResources } from './shared/documented.ts';
import { createFinding, label } from './shared/finding-events.ts';
import { bodyWith, crudNamed, eventsSkipped, type Json, sink, subscribe } from './shared/rule-support.ts';

const RULES = ['webhooks.2', 'schema.WebhookUrl.2', 'createWebhook.3'] as const;
type Rule = (typeof RULES)[number];

/** Addresses the document names as refused in production, each with the same address as an IPv4-mapped IPv6 literal (RFC 4291 section 2.5.5.2). */
const REFUSED = [
  {
    what: 'the cloud-metadata address 169.254.169.254',
    plain: 'https://169.254.169.254/latest/meta-data',
    mapped: ['https://[::ffff:169.254.169.254]/latest/meta-data', 'https://[::ffff:a9fe:a9fe]/latest/meta-data'],
  },
  {
    what: 'the loopback address 127.0.0.1',
    plain: 'https://127.0.0.1/secmon-contract',
    mapped: ['https://[::ffff:127.0.0.1]/secmon-contract', 'https://[0:0:0:0:0:ffff:7f00:1]/secmon-contract'],
  },
] as const;

/** An address of each class the document's production rules refuse, as an IP literal. */
const PRODUCTION_REFUSED = [
  ['loopback', 'https://127.0.0.1/hook'],
  ['loopback', 'https://[::1]/hook'],
  ['private (RFC 1918)', 'https://10.0.0.1/hook'],
  ['private (RFC 1918)', 'https://172.16.0.1/hook'],
  ['private (RFC 1918)', 'https://192.168.0.1/hook'],
  ['private (fc00::/7)', 'https://[fd00::1]/hook'],
  ['link-local', 'https://169.254.1.1/hook'],
  ['link-local', 'https://[fe80::1]/hook'],
  ['CGNAT (100.64.0.0/10)', 'https://100.64.0.1/hook'],
  ['cloud-metadata', 'https://169.254.169.254/latest/meta-data'],
] as const;
/** A name that never resolves (RFC 6761), in both schemes: only the scheme can decide between them. */
const PROBE_HOST = 'secmon-contract-probe.invalid/hook';

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

export const webhookAddressesCheck = defineCheck({
  name: 'webhook-addresses',
  column: 'addr',
  rules: RULES,
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 20, perCase: 0 },
  instances: (model) =>
    withResources(model, (found) => ({
      subjects: labels(found.webhooks.create.label, found.hook('finding.created')),
      run: async (ctx, check) => {
        const notes = [await refusedSpellings(ctx, check), await productionRefusals(ctx, check), await ipv6Delivery(ctx, check)];
        return { note: notes.join('; ') };
      },
    })),
});

const accepted = (status: number) => status >= 200 && status < 300;

/**
 * A refused address written as an IPv4-mapped IPv6 literal is refused too, on create and on update.
 * Every webhook here is disabled, so one a service accepts is never sent anything, and deleted at once.
 */
async function refusedSpellings(ctx: KitContext, check: Check<Rule>): Promise<string> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const disabledAt = (url?: string) => disabledBody(ctx, url);
  const save = (url: string) => saveDisabled(ctx, url);
  let existing: { id: string; body: Json } | undefined;
  const judged: string[] = [];
  for (const { what, plain, mapped } of REFUSED) {
    const base = await save(plain);
    if (accepted(base.status) || base.status >= 500) continue;
    judged.push(what);
    if (!existing) {
      const body = await disabledAt();
      existing = { id: (await ctx.create(webhooks, check, body)).id, body };
    }
    for (const url of mapped) {
      const created = await save(url);
      const updated = await ctx.send(webhooks.update, { id: existing.id, body: { ...existing.body, url } });
      for (const [exchange, how] of [
        [created, 'created'],
        [updated, 'updated to it'],
      ] as const) {
        if (!accepted(exchange.status)) continue;
        check.fail({
          at: how === 'created' ? webhooks.create : webhooks.update,
          rule: ['schema.WebhookUrl.2', 'createWebhook.3'],
          observed: `a webhook ${how} with ${url} answered ${exchange.status}, though ${plain} was refused (${base.status}): both target ${what}`,
          exchange,
        });
      }
    }
  }
  return judged.length > 0
    ? `IPv4-mapped spellings refused like ${judged.join(' and ')}`
    : 'no address refused in its plain spelling (development mode): IPv4-mapped spellings not judged';
}

/** A disabled webhook's body, at `url` when given. */
const disabledBody = (ctx: KitContext, url?: string) =>
  bodyWith(ctx, crudNamed(ctx, 'webhooks').create, { ...(url ? { url } : {}), enabled: false });

/** Saves a disabled webhook at `url`, deleted again at once when the service accepts it: the answer. */
async function saveDisabled(ctx: KitContext, url: string): Promise<Exchange> {
  const webhooks = crudNamed(ctx, 'webhooks');
  const exchange = await ctx.send(webhooks.create, { body: await disabledBody(ctx, url) });
  const id = (exchange.json as Json | undefined)?.id;
  if (accepted(exchange.status) && typeof id === 'string') await ctx.send(webhooks.delete, { id });
  return exchange;
}

/**
 * Outside production the document allows `http` and states no refusal; a service that takes an
 * `https` URL and refuses the same URL in `http` follows its production rules, and then refuses an
 * address of each class they list.
 */
async function productionRefusals(ctx: KitContext, check: Check<Rule>): Promise<string> {
  const secure = await saveDisabled(ctx, `https://${PROBE_HOST}`);
  const plain = await saveDisabled(ctx, `http://${PROBE_HOST}`);
  if (!accepted(secure.status) || accepted(plain.status) || plain.status >= 500)
    return `production refusals not judged: https answered ${secure.status} and http ${plain.status} (production mode takes https only)`;
  const webhooks = crudNamed(ctx, 'webhooks');
  for (const [kind, url] of PRODUCTION_REFUSED) {
    const answer = await saveDisabled(ctx, url);
    if (accepted(answer.status))
      check.fail({
        at: webhooks.create,
        rule: ['schema.WebhookUrl.2', 'createWebhook.3'],
        observed: `a webhook at ${url}, a ${kind} address, was accepted (${answer.status}) by a service in production mode (it refused the http URL it took in https)`,
        exchange: answer,
      });
  }
  return `production mode (http refused): ${PRODUCTION_REFUSED.length} addresses of the refused classes sent`;
}

/** A webhook at an IPv6 literal receives its events, when the service accepts one and both ends are on this machine. */
async function ipv6Delivery(ctx: KitContext, check: Check<Rule>): Promise<string> {
  const skipped = eventsSkipped(ctx);
  if (skipped) return `IPv6 delivery not judged: ${skipped}`;
  if (ctx.options.receiverUrl || !LOOPBACK_HOST.test(new URL(ctx.options.baseUrl).hostname))
    return 'IPv6 delivery not judged: the target runs elsewhere and cannot reach [::1] of this machine';
  let receiver: Receiver;
  try {
    receiver = await startReceiver({ host: '::1', port: 0 });
  } catch (error) {
    return `IPv6 delivery not judged: this machine cannot listen on [::1] (${(error as NodeJS.ErrnoException).code ?? error})`;
  }
  try {
    const webhooks = crudNamed(ctx, 'webhooks');
    const url = `${receiver.url}/rules/ipv6-literal`;
    const saved = await ctx.send(webhooks.create, {
      body: await bodyWith(ctx, webhooks.create, { url, events: ['finding.created'], enabled: true }),
    });
    if (!accepted(saved.status)) return `IPv6 delivery not judged: the service refused ${url} (${saved.status})`;
    // The same event to an IPv4 literal tells an IPv6 failure from no delivery at all (the delivery check's).
    const ipv4 = await sink(ctx, 'ipv6-control');
    const control = await subscribe(ctx, check, ipv4.url, ['finding.created']);
    await createFinding(ctx, check);
    const reached = await ipv4.waitFor((ds) => ds.length > 0, 'the delivery to the IPv4 receiver');
    const { met, waitedMs } = await receiver.waitUntil((ds) => ds.length > 0, ctx.options.eventTimeoutMs);
    // Later events of the run must not queue for a receiver that is gone.
    for (const id of [(saved.json as Json).id, control.id]) if (typeof id === 'string') await ctx.send(webhooks.delete, { id });
    if (met) return 'delivered to an IPv6 literal';
    if (!reached.met) return 'IPv6 delivery not judged: the IPv4 receiver got no delivery either';
    check.fail({
      at: label(ctx, 'finding.created'),
      rule: 'webhooks.2',
      observed: `the webhook at ${url} (an IPv6 literal, accepted with ${saved.status}) received no finding.created in ${waitedMs} ms; the same event reached a webhook at ${new URL(ipv4.url).host}`,
      exchange: saved,
    });
    return 'IPv6 delivery failed';
  } finally {
    await receiver.close();
  }
}
