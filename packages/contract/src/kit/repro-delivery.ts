// A delivery failure (a wrong signature, a wrong body, a delivery that never came) as a replay that
// stands alone. It starts a receiver of its own (Node built-ins only), replays the requests that
// caused the event with every webhook the run created pointed at that receiver and given a secret
// the replay chooses, waits a bounded time for the delivery, judges it as the kit did (the
// X-Service-Signature and Standard Webhooks HMACs with that secret, a required field, the delivery at
// all), deletes the webhooks it created and prints "reproduced: <headline>" (exit 1) or "not
// reproduced" (exit 0). Written as a Node ES module and as an .http file for httpyac, whose scripts
// run in Node, so the same receiver and judge run there. Keys come from the environment and the
// secret is made at run time: neither is ever written into the files.
import type { Exchange } from './http.ts';
import {
  commented,
  HTTP_VARIABLES,
  httpRequests,
  httpVariable,
  literalsOf,
  type Produced,
  pieces,
  producedBy,
  type Reproduction,
} from './repro.ts';
import { missingField, pointerExpression } from './repro-judge.ts';
import { httpFreshKeys, idempotencyKeysOf, moduleFreshKey } from './repro-keys.ts';
import type { Violation } from './violation.ts';

/** What the faulty delivery showed, judged again on the replay's own delivery. */
export type DeliveryFault =
  | { signature: 'X-Service-Signature' | 'webhook-signature' }
  | { missing: { at: string; name: string } }
  | { absent: true };

export interface DeliverySymptom {
  event: string;
  fault: DeliveryFault;
}

/** The event of a webhook's label (`findingCreated (webhook finding.created)`): what a violation of a delivery is about. */
export function webhookEventOf(violation: Violation): string | undefined {
  return /\(webhook ([^)\s]+)\)$/.exec(violation.subject?.operation ?? '')?.[1];
}

/** The symptom a replay can judge on its own delivery, for a violation of a webhook; undefined when it cannot. */
export function deliverySymptomOf(violation: Violation): DeliverySymptom | undefined {
  const event = webhookEventOf(violation);
  if (!event) return undefined;
  const message = violation.observed.split('\n')[0] ?? '';
  if (/^X-Service-Signature (does not verify|is missing on a signed webhook)/.test(message))
    return { event, fault: { signature: 'X-Service-Signature' } };
  if (/^(no webhook-signature entry is|webhook-signature is missing on a signed webhook)/.test(message))
    return { event, fault: { signature: 'webhook-signature' } };
  if (message.startsWith(`no ${event} delivery reached the receiver`)) return { event, fault: { absent: true } };
  const missing = missingField(violation);
  return missing ? { event, fault: { missing } } : undefined;
}

interface DeliveryReplayOptions {
  title: string;
  report: string;
  baseUrl: string;
  symptom: DeliverySymptom;
  headline: string;
}

// Stand-ins written into the webhook writes, replaced by the replay's receiver URL and secret.
const RECEIVER_URL = 'secmon-replay-receiver-url';
const SECRET = 'secmon-replay-secret';
const EXTRA = [
  [RECEIVER_URL, 'RECEIVER_URL'],
  [SECRET, 'WEBHOOK_SECRET'],
] as const;
const WEBHOOK_WRITE = /\/webhooks(\/[^/?]+)?$/;
const DEFAULT_TIMEOUT_MS = 10_000;

/** A webhook create or replace pointed at the replay's receiver (same path) with its secret, where the run gave one. */
function retargeted(exchange: Exchange): Exchange {
  const { method, url, body } = exchange.request;
  if ((method !== 'POST' && method !== 'PUT') || !WEBHOOK_WRITE.test(new URL(url).pathname)) return exchange;
  const json = parsed(body);
  if (typeof json.url !== 'string' || !URL.canParse(json.url)) return exchange;
  const edited = {
    ...json,
    url: `${RECEIVER_URL}${new URL(json.url).pathname}`,
    ...(typeof json.secret === 'string' ? { secret: SECRET } : {}),
  };
  return { ...exchange, request: { ...exchange.request, body: JSON.stringify(edited) } };
}

/** A request body's JSON object; empty when it is none (a body the kit sent malformed on purpose). */
function parsed(body: string | undefined): { url?: unknown; secret?: unknown } {
  try {
    const json = JSON.parse(body ?? '') as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? json : {};
  } catch {
    return {};
  }
}

const isCreate = (exchange: Exchange) => exchange.request.method === 'POST' && /\/webhooks$/.test(new URL(exchange.request.url).pathname);

/** The receiver paths whose deliveries are judged: the signed webhooks' (all the run's webhooks when none was signed). */
function watchedPaths(exchanges: readonly Exchange[]): string[] {
  const writes = exchanges.filter(isCreate).flatMap((e) => {
    const { url, secret } = parsed(e.request.body);
    return typeof url === 'string' && url.startsWith(RECEIVER_URL)
      ? [{ path: url.slice(RECEIVER_URL.length), signed: secret === SECRET }]
      : [];
  });
  const signed = writes.filter((w) => w.signed);
  return (signed.length > 0 ? signed : writes).map((w) => w.path);
}

// The receiver and the wait, as JavaScript for both files (`http` is node:http).
const RECEIVER = `/** Starts the receiver: it keeps each delivery's path, headers and raw bytes, and answers 204. */
function startReceiver(listen, publicUrl) {
  const deliveries = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      deliveries.push({ path: (req.url || "/").split("?")[0], headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  const [, host = "127.0.0.1", port = "0"] = /^(?:(.+):)?(\\d+)$/.exec(listen) || [];
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port), host, () => {
      const local = "http://" + (host.includes(":") ? "[" + host + "]" : host) + ":" + server.address().port;
      resolve({ url: (publicUrl || local).replace(/\\/+$/, ""), deliveries, close: () => { server.closeAllConnections(); server.close(); } });
    });
  });
}`;

const WAIT = `/** The deliveries of the event at the watched paths: once one came (and a moment for the rest), or when time is up. */
async function awaitDeliveries(receiver, watched, timeoutMs) {
  const eventOf = (d) => {
    try {
      const { event } = JSON.parse(d.raw.toString("utf8"));
      if (typeof event === "string") return event;
    } catch {}
    return d.headers["x-service-event"];
  };
  const found = () => receiver.deliveries.filter((d) => watched.paths.includes(d.path) && eventOf(d) === watched.event);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  for (const deadline = Date.now() + timeoutMs; found().length === 0 && Date.now() < deadline; ) await pause(100);
  if (found().length > 0) await pause(500);
  return found();
}`;

/** `faultIn(delivery, secret)`: whether one delivery shows the fault, computed as the document says (`crypto` is node:crypto). */
function faultTest(fault: DeliveryFault): string {
  const body = (() => {
    if ('absent' in fault) return 'return false;';
    if ('signature' in fault && fault.signature === 'X-Service-Signature')
      return 'return header("x-service-signature") !== "sha256=" + hmac().update(delivery.raw).digest("hex");';
    if ('signature' in fault)
      return [
        'const signed = hmac().update(header("webhook-id") + "." + header("webhook-timestamp") + ".").update(delivery.raw);',
        '  return !(header("webhook-signature") || "").split(" ").includes("v1," + signed.digest("base64"));',
      ].join('\n');
    return [
      'let body;',
      '  try { body = JSON.parse(delivery.raw.toString("utf8")); } catch { return false; }',
      `  const object = ${pointerExpression(fault.missing.at)};`,
      `  return object != null && !(${JSON.stringify(fault.missing.name)} in object);`,
    ].join('\n');
  })();
  return `/** Whether a delivery shows the fault: what the kit expected against what came, with the replay's secret. */
function faultIn(delivery, secret) {
  const header = (name) => (typeof delivery.headers[name] === "string" ? delivery.headers[name] : undefined);
  const hmac = () => crypto.createHmac("sha256", Buffer.from(secret, "utf8"));
  ${body}
}
/** The fault is there: ${'absent' in fault ? 'no delivery came' : 'a delivery shows it'}. */
const reproducedBy = (delivered, secret) => ${'absent' in fault ? 'delivered.length === 0' : 'delivered.some((delivery) => faultIn(delivery, secret))'};`;
}

/** How to run it, what the target must reach, and what the kit said: the files' opening comment lines. */
function about(options: DeliveryReplayOptions, keys: string[], command: string, notes: string[] = []): string[] {
  return [
    `secmon-contract reproduction: ${options.title}`,
    `Replays the requests that caused ${options.symptom.event}, with the webhooks pointed at a receiver this replay`,
    'starts itself and given a secret it chooses, waits for the delivery, judges it against what the kit',
    'expected, deletes the webhooks it created, and prints "reproduced: …" (exit 1) or "not reproduced" (exit 0).',
    `  SECMON_BASE_URL=${options.baseUrl}${keys.map((k) => ` ${k}=…`).join('')} ${command}`,
    'The target must reach the receiver: it listens on 127.0.0.1 on a free port (SECMON_RECEIVER_LISTEN=host:port',
    'chooses), which serves a target on this machine. For a target elsewhere, listen where it can connect',
    '(SECMON_RECEIVER_LISTEN=0.0.0.0:8080) and give the URL it reaches that on (SECMON_RECEIVER_URL=https://…,',
    "a tunnel or a CI service, as the kit's --receiver-url). SECMON_EVENT_TIMEOUT: ms to wait (default",
    `${DEFAULT_TIMEOUT_MS}). It creates what the run created (names start with "kit-"); delete the rest afterwards if needed.`,
    ...notes,
    '',
    'What the kit reported:',
    options.report,
  ];
}

/** The Node ES module and the .http file replaying a delivery failure. */
export function deliveryReproduction(exchanges: readonly Exchange[], options: DeliveryReplayOptions): Reproduction {
  const sent = exchanges.map(retargeted);
  const produced = sent.flatMap((exchange, index) => producedBy(exchange, index + 1));
  const keys = ['SECMON_API_KEY', 'SECMON_READ_KEY'].filter((variable) =>
    sent.some((e) =>
      Object.values(e.request.headers).some((value) => value.includes(variable === 'SECMON_API_KEY' ? '<api-key>' : '<read-key>')),
    ),
  );
  const idempotency = idempotencyKeysOf(sent);
  const replay: Replay = {
    sent,
    produced,
    options,
    keys,
    extra: [...EXTRA, ...idempotency],
    freshKeys: idempotency.map(([, variable]) => variable),
    watched: { event: options.symptom.event, paths: watchedPaths(sent) },
  };
  return { script: moduleScript(replay), runner: 'node', http: httpFile(replay) };
}

/** What both files are written from: the requests to send, the values they produce, the keys they need and what to judge. */
interface Replay {
  sent: readonly Exchange[];
  produced: readonly Produced[];
  options: DeliveryReplayOptions;
  keys: string[];
  /** Literals replaced besides the target, the keys and what answers produced: the receiver, the secret, the idempotency keys. */
  extra: readonly (readonly [literal: string, variable: string])[];
  /** The variables given a new Idempotency-Key at every run. */
  freshKeys: readonly string[];
  watched: { event: string; paths: string[] };
}

type Piece = string | { v: string };

function moduleScript({ sent, produced, options, keys, extra, freshKeys, watched }: Replay): string {
  const template = (text: string, step: number): Piece[] =>
    pieces(text, literalsOf(produced, options.baseUrl, step, extra)).map((piece) => (piece.variable ? { v: piece.text } : piece.text));
  const steps = sent.map((exchange, index) => {
    const step = index + 1;
    const { method, url, headers, body } = exchange.request;
    return {
      step,
      method,
      status: exchange.status,
      url: template(url, step),
      headers: Object.entries(headers).map(([name, value]) => [name, template(value, step)]),
      ...(body === undefined ? {} : { body: template(body, step) }),
      produces: produced
        .filter((p) => p.step === step)
        .map((p) => ({ v: p.shell, ...('field' in p.from ? { field: p.from.field } : { header: p.from.header }) })),
      ...(isCreate(exchange) ? { webhook: true } : {}),
    };
  });
  return `#!/usr/bin/env node
${commented(about(options, keys, 'node <this file>').join('\n')).replaceAll(/^#/gm, '//')}
import crypto from "node:crypto";
import http from "node:http";

const STEPS = ${JSON.stringify(steps, null, 1)};
const WATCHED = ${JSON.stringify(watched)};
const HEADLINE = ${JSON.stringify(options.headline)};

${RECEIVER}

${WAIT}

${faultTest(options.symptom.fault)}

const vars = { SECMON_BASE_URL: (process.env.SECMON_BASE_URL || ${JSON.stringify(options.baseUrl)}).replace(/\\/+$/, "") };
for (const name of ${JSON.stringify(keys)}) {
  if (!process.env[name]) {
    console.error("set " + name + " to the key the run used");
    process.exit(2);
  }
  vars[name] = process.env[name];
}
vars.WEBHOOK_SECRET = "replay_" + crypto.randomBytes(24).toString("hex");
${freshKeys.map((variable) => `vars.${variable} = ${moduleFreshKey};\n`).join('')}const receiver = await startReceiver(process.env.SECMON_RECEIVER_LISTEN || "127.0.0.1:0", process.env.SECMON_RECEIVER_URL);
vars.RECEIVER_URL = receiver.url;
const text = (pieces) => pieces.map((piece) => (typeof piece === "string" ? piece : String(vars[piece.v] ?? ""))).join("");
const created = [];
let seen = false;
try {
  for (const step of STEPS) {
    const url = text(step.url);
    const headers = Object.fromEntries(step.headers.map(([name, value]) => [name, text(value)]));
    console.log("\\n### " + step.step + ". " + step.method + " " + url + " (the run got " + step.status + ")");
    const answer = await fetch(url, { method: step.method, headers, body: step.body && text(step.body), redirect: "manual" }).catch(
      (error) => void console.log("(no answer: " + error.message + ")"),
    );
    if (!answer) continue;
    const body = await answer.text();
    console.log(answer.status + " " + body);
    let json;
    try { json = JSON.parse(body); } catch {}
    for (const p of step.produces) {
      const value = p.field ? json && json[p.field] : answer.headers.get(p.header);
      if (typeof value === "string") vars[p.v] = value;
    }
    if (step.webhook && answer.ok && json && typeof json.id === "string") created.push({ url: url + "/" + json.id, headers });
  }
  const delivered = await awaitDeliveries(receiver, WATCHED, Number(process.env.SECMON_EVENT_TIMEOUT || ${DEFAULT_TIMEOUT_MS}));
  console.log("\\n### " + delivered.length + " " + WATCHED.event + " deliveries received at " + WATCHED.paths.join(", "));
  for (const delivery of delivered) console.log(JSON.stringify(delivery.headers) + "\\n" + delivery.raw.toString("utf8"));
  seen = reproducedBy(delivered, vars.WEBHOOK_SECRET);
} finally {
  for (const webhook of created) {
    const headers = Object.fromEntries(Object.entries(webhook.headers).filter(([name]) => name.toLowerCase() === "authorization"));
    await fetch(webhook.url, { method: "DELETE", headers }).catch(() => undefined);
  }
  receiver.close();
}
console.log(seen ? "reproduced: " + HEADLINE : "not reproduced");
process.exit(seen ? 1 : 0);
`;
}

function httpFile({ sent, produced, options, keys, extra, freshKeys, watched }: Replay): string {
  const substitutions = (step: number) =>
    literalsOf(produced, options.baseUrl, step, extra).map(([literal, variable]) => [literal, httpVariable(variable)] as const);
  // A JavaScript expression for a request's URL in the file's scripts, where its variables are names.
  const expression = (text: string, step: number) =>
    pieces(text, literalsOf(produced, options.baseUrl, step, extra))
      .map((piece) => (piece.variable ? httpVariable(piece.text).slice(2, -2) : JSON.stringify(piece.text)))
      .join(' + ');
  const creates = sent.flatMap((exchange, index) =>
    isCreate(exchange)
      ? [
          {
            url: expression(exchange.request.url, index + 1),
            id: produced.find((p) => p.step === index + 1 && 'field' in p.from && p.from.field === 'id')?.shell,
          },
        ]
      : [],
  );
  const start = [
    '{{',
    '  const http = require("node:http");',
    '  const crypto = require("node:crypto");',
    ...RECEIVER.split('\n').map((line) => `  ${line}`),
    '  exports.WEBHOOK_SECRET = "replay_" + crypto.randomBytes(24).toString("hex");',
    '  exports.started = startReceiver(process.env.SECMON_RECEIVER_LISTEN || "127.0.0.1:0", process.env.SECMON_RECEIVER_URL).then((receiver) => {',
    '    exports.replayReceiver = receiver;',
    '    exports.RECEIVER_URL = receiver.url;',
    '  });',
    '}}',
  ];
  const deleteCreated = creates.map(
    ({ url, id }) =>
      `    if (typeof ${id} === "string") await fetch(${url} + "/" + ${id}, { method: "DELETE", headers: { Authorization: "Bearer " + apiKey } }).catch(() => undefined);`,
  );
  const verdict = [
    '',
    '{{',
    '  const crypto = require("node:crypto");',
    ...WAIT.split('\n').map((line) => `  ${line}`),
    ...faultTest(options.symptom.fault)
      .split('\n')
      .map((line) => `  ${line}`),
    `  const watched = ${JSON.stringify(watched)};`,
    `  const headline = ${JSON.stringify(`reproduced: ${options.headline}`)};`,
    '  exports.verdict = (async () => {',
    `    const delivered = await awaitDeliveries(replayReceiver, watched, Number(process.env.SECMON_EVENT_TIMEOUT || ${DEFAULT_TIMEOUT_MS}));`,
    '    const seen = reproducedBy(delivered, WEBHOOK_SECRET);',
    ...deleteCreated,
    '    replayReceiver.close();',
    '    console.info(seen ? headline : "not reproduced");',
    '    test("the fault is not there", () => {',
    '      if (seen) throw new Error(headline);',
    '    });',
    '  })();',
    '}}',
  ];
  const requests = httpRequests(sent, produced, substitutions, {
    before: (step) => (step === 1 ? [...start, ...httpFreshKeys(freshKeys)] : []),
    after: (step) => (step === sent.length ? verdict : []),
  });
  return [
    commented(
      about(options, keys, 'npx httpyac send <this file> --all', [
        'httpyac runs the scripts in {{ }} with Node, which the receiver and the verdict need (its VS Code',
        'extension too); another client sends the requests but cannot receive the delivery: use the .mjs.',
      ]).join('\n'),
    ),
    '',
    ...HTTP_VARIABLES,
    '',
    ...requests,
  ].join('\n');
}
