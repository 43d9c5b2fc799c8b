// A delivery failure's replay as a Node ES module: it starts the receiver, sends the requests,
// waits for the delivery, judges it, deletes the webhooks it created and says whether the fault is there.
import { commented, literalsOf, pieces } from './repro.ts';
import { about, type Replay } from './repro-delivery-record.ts';
import { DEFAULT_TIMEOUT_MS, faultTest, RECEIVER, WAIT } from './repro-delivery-runtime.ts';
import { isWebhookCreate } from './repro-delivery-webhooks.ts';
import { moduleFreshKey } from './repro-keys.ts';

type Piece = string | { v: string };

/** The replay as a Node ES module, run with `node`. */
export function moduleScript({ sent, produced, options, keys, extra, freshKeys, watched }: Replay): string {
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
      ...(isWebhookCreate(exchange) ? { webhook: true } : {}),
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
