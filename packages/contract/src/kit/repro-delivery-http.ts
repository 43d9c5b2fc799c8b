// A delivery failure's replay as an .http file for httpyac: the requests, with scripts (run in
// Node) that start the receiver before the first and judge the delivery after the last.
import { commented, HTTP_VARIABLES, httpRequests, httpVariable, literalsOf, pieces } from './repro.ts';
import { about, type Replay } from './repro-delivery-record.ts';
import { DEFAULT_TIMEOUT_MS, faultTest, RECEIVER, WAIT } from './repro-delivery-runtime.ts';
import { isWebhookCreate } from './repro-delivery-webhooks.ts';
import { httpFreshKeys } from './repro-keys.ts';

/** The replay as an .http file, run with httpyac (its scripts need Node). */
export function httpFile({ sent, produced, options, keys, extra, freshKeys, watched }: Replay): string {
  const substitutions = (step: number) =>
    literalsOf(produced, options.baseUrl, step, extra).map(([literal, variable]) => [literal, httpVariable(variable)] as const);
  // A JavaScript expression for a request's URL in the file's scripts, where its variables are names.
  const expression = (text: string, step: number) =>
    pieces(text, literalsOf(produced, options.baseUrl, step, extra))
      .map((piece) => (piece.variable ? httpVariable(piece.text).slice(2, -2) : JSON.stringify(piece.text)))
      .join(' + ');
  const creates = sent.flatMap((exchange, index) =>
    isWebhookCreate(exchange)
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
