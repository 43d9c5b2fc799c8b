// `secmon-contract receiver --url <receiver>`: checks an integrator's webhook receiver, the code
// most likely to be wrong (a parsed instead of the raw body, no signature check, no replay check,
// duplicates refused). It sends deliveries signed as the document says the service signs them (the
// kit's own oracle, not the reference server's signing code, so a defect there is not copied): each event
// type and a redelivery must be accepted (2xx within the service's 10 s time-out), and forged,
// altered, stale or foreign-signed ones refused (anything but 2xx). One verdict per case.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { listMediaTypes, loadDocument } from 'secmon-api/src/document';
import { HELP_OPTION, usageError } from '../../../../common/cli.ts';
import { MARK } from './coverage.ts';
import { junitReport } from './junit.ts';
import { signedDeliveryHeaders, toleranceSeconds } from './oracle.ts';
import type { CheckResult } from './results.ts';

/** The service's time-out for an answer (the document's *Delivery and retries*). */
const ANSWER_WITHIN_MS = 10_000;
const SECRET_ENV = 'SECMON_WEBHOOK_SECRET';

export interface ReceiverCheckOptions {
  url: string;
  secret: string;
  /** The webhook id the deliveries name (`X-Service-Webhook-Id`); any well-formed one by default. */
  webhookId?: string;
  timeoutMs?: number;
}

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/** What the receiver must do with a delivery, and the delivery. */
interface Case {
  name: string;
  expect: 'accept' | 'refuse';
  /** Why a receiver must refuse it, for the verdict. */
  why?: string;
  delivery: () => Delivery;
}

const DOCUMENT = loadDocument();
const EVENT_TYPES = Object.keys(DOCUMENT.webhooks ?? {});
const TOLERANCE_SECONDS = toleranceSeconds(DOCUMENT);

const now = () => Math.floor(Date.now() / 1000);

/** The document's first example of each event, stamped now (receivers may look at its age). */
function sampleBody(type: string): string {
  const media = listMediaTypes(DOCUMENT).find((m) => m.kind === 'request' && m.schemaPointer.startsWith(`#/webhooks/${type}/`));
  const example = media?.examples[0]?.value as Record<string, unknown> | undefined;
  if (!example) throw new Error(`the document has no example of ${type}`);
  return JSON.stringify({ ...example, timestamp: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z') });
}

function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${Buffer.from(bytes).toString('base64url')}`;
}

export function receiverCases({ secret, webhookId = 'whk_01jbz4c8d2e6f0g4h8j2k6m0n4' }: ReceiverCheckOptions): Case[] {
  const sign = (body: string, options: { id?: string; timestamp?: number; secret?: string | null } = {}): Delivery => {
    const type = (JSON.parse(body) as { event: string }).event;
    const headers = signedDeliveryHeaders({
      body,
      eventType: type,
      deliveryId: options.id ?? crypto.randomUUID(),
      webhookId,
      secret: options.secret === undefined ? secret : options.secret,
      timestamp: options.timestamp ?? now(),
      version: DOCUMENT.info.version,
    });
    return { body, headers };
  };
  const redelivered = crypto.randomUUID();
  const redeliveredBody = sampleBody('finding.created');
  return [
    ...EVENT_TYPES.map(
      (type): Case => ({
        name: `accepts ${type}`,
        expect: 'accept',
        delivery: () => (type === 'finding.created' ? sign(redeliveredBody, { id: redelivered }) : sign(sampleBody(type))),
      }),
    ),
    {
      name: 'accepts a redelivery of the same X-Service-Delivery',
      expect: 'accept',
      // A retry of the finding.created case: the same body bytes and delivery id, signed again at
      // the time of the new attempt. A receiver that has handled it must still answer 2xx.
      delivery: () => sign(redeliveredBody, { id: redelivered }),
    },
    {
      name: 'refuses a delivery without signature',
      expect: 'refuse',
      why: 'anyone can send it',
      delivery: () => sign(sampleBody('finding.created'), { secret: null }),
    },
    {
      name: 'refuses a wrong signature',
      expect: 'refuse',
      why: 'its signatures are not HMACs of the body',
      delivery: () => {
        const delivery = sign(sampleBody('finding.created'));
        const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
        delivery.headers['x-service-signature'] = flip(delivery.headers['x-service-signature']!, 20);
        delivery.headers['webhook-signature'] = flip(delivery.headers['webhook-signature']!, 10);
        return delivery;
      },
    },
    {
      name: 'refuses a body changed after signing',
      expect: 'refuse',
      why: 'the signatures cover other bytes (a receiver that verifies a re-serialised body, or none, accepts it)',
      delivery: () => {
        const delivery = sign(sampleBody('finding.created'));
        return {
          ...delivery,
          body: delivery.body.replace(/"severity":"\w+"/, '"severity":"info"').replace(/"title":"/, '"title":"(changed) '),
        };
      },
    },
    {
      name: `refuses a timestamp outside the ${TOLERANCE_SECONDS / 60}-minute tolerance`,
      expect: 'refuse',
      why: 'it was signed 10 minutes ago: a replay of a captured delivery (X-Service-Signature alone cannot tell)',
      delivery: () => sign(sampleBody('finding.created'), { timestamp: now() - 600 }),
    },
    {
      name: 'refuses a signature made with another secret',
      expect: 'refuse',
      why: 'it was signed with a secret that is not this webhook’s',
      delivery: () => sign(sampleBody('finding.created'), { secret: randomSecret() }),
    },
  ];
}

/** Sends every case in order; one CheckResult per case. */
export async function runReceiverCheck(
  options: ReceiverCheckOptions,
  onResult?: (result: CheckResult<string>) => void,
): Promise<CheckResult<string>[]> {
  const timeoutMs = options.timeoutMs ?? ANSWER_WITHIN_MS;
  const results: CheckResult<string>[] = [];
  for (const item of receiverCases(options)) {
    const { body, headers } = item.delivery();
    const started = performance.now();
    let status: number | undefined;
    let failure: string | undefined;
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      status = response.status;
    } catch (error) {
      failure = `no answer within ${timeoutMs} ms (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`;
    }
    const ms = Math.round(performance.now() - started);
    const accepted = status !== undefined && status >= 200 && status < 300;
    if (!failure && item.expect === 'accept' && !accepted)
      failure = `answered ${status}; a valid, signed delivery must get 2xx (anything else is retried, then disables the webhook)`;
    if (!failure && item.expect === 'refuse' && accepted)
      failure = `answered ${status}; it must be refused (any status but 2xx) because ${item.why}`;
    const result: CheckResult<string> = {
      id: item.name,
      check: item.name,
      subjects: ['receiver'],
      exercisesSuccess: item.expect === 'accept',
      outcome: failure ? 'failed' : 'passed',
      ms,
      ...(failure ? { error: `${item.name}: ${failure}` } : { note: status === undefined ? 'no answer' : `answered ${status}` }),
    };
    results.push(result);
    onResult?.(result);
  }
  return results;
}

const RECEIVER_COMMAND = 'secmon-contract receiver';
export const RECEIVER_USAGE = `usage: ${RECEIVER_COMMAND} --url <receiver> [--secret <secret>] [--report <file>]

Checks a webhook receiver: sends it deliveries signed as the SecMon service signs them. Each of
the six event types and a redelivery of the same X-Service-Delivery must get 2xx within 10 s; a
delivery without signature, with a wrong signature, with a body changed after signing, with a
timestamp outside the 5-minute tolerance, or signed with another secret must get anything but 2xx.

  --url <url>       where the receiver listens (the URL a webhook would be created with)
  --secret <secret> the webhook secret the receiver verifies with; prefer the ${SECRET_ENV}
                    environment variable (a command line is visible to other users and kept in
                    shell history)
  --report <file>   also write a JUnit XML report there
  --webhook-id <id> the X-Service-Webhook-Id to send (default an example id)
  -h, --help        this help

Exit status: 0 every case holds, 1 a case failed, 2 bad options.`;

interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The subcommand; resolves to the exit status. */
export async function receiverCommand(argv: string[], env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        report: { type: 'string' },
        'webhook-id': { type: 'string' },
        ...HELP_OPTION,
      },
    }).values;
  } catch (error) {
    io.err(usageError(RECEIVER_COMMAND, (error as Error).message));
    return 2;
  }
  if (values.help) {
    io.out(`${RECEIVER_USAGE}\n`);
    return 0;
  }
  const secret = values.secret ?? (env[SECRET_ENV] || undefined);
  const problems = [
    !values.url && '--url is required',
    values.url && !/^https?:\/\//.test(values.url) && '--url must be an http(s) URL',
    !secret && `a secret is required: set ${SECRET_ENV} (or pass --secret)`,
    secret && (secret.length < 16 || secret.length > 256) && 'the secret must have 16 to 256 characters, as a webhook secret does',
  ].filter(Boolean);
  if (problems.length > 0) {
    io.err(usageError(RECEIVER_COMMAND, problems as string[]));
    return 2;
  }
  const started = performance.now();
  io.out(`secmon-contract receiver: checking ${values.url}\n\n`);
  const results = await runReceiverCheck(
    { url: values.url!, secret: secret!, ...(values['webhook-id'] ? { webhookId: values['webhook-id'] } : {}) },
    (result) => io.out(`${MARK[result.outcome]} ${result.check}  ${result.ms} ms${result.note ? `  (${result.note})` : ''}\n`),
  );
  const seconds = (performance.now() - started) / 1000;
  const failures = results.filter((result) => result.outcome === 'failed');
  if (failures.length > 0)
    io.out(`\n${failures.length} of ${results.length} cases failed:\n\n${failures.map((f) => f.error).join('\n')}\n`);
  if (values.report) {
    const report = resolve(values.report);
    mkdirSync(dirname(report), { recursive: true });
    writeFileSync(report, junitReport('secmon-contract receiver', results, seconds));
  }
  io.out(
    `\nreceiver ${failures.length === 0 ? 'PASSED' : 'FAILED'}: ${results.length - failures.length} of ${results.length} cases hold (${seconds.toFixed(1)} s)${values.report ? `; JUnit report: ${resolve(values.report)}` : ''}\n`,
  );
  return failures.length === 0 ? 0 : 1;
}
