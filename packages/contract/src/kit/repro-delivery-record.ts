// What both files of a delivery replay are written from: the run's requests with the webhook writes
// pointed at the replay's receiver, the values the answers produce, the keys and what to judge;
// and the opening comment both carry.
import type { Exchange } from './http.ts';
import { type Produced, producedBy } from './repro.ts';
import { DEFAULT_TIMEOUT_MS } from './repro-delivery-runtime.ts';
import type { DeliverySymptom } from './repro-delivery-symptom.ts';
import { RECEIVER_STAND_INS, retargeted, watchedPaths } from './repro-delivery-webhooks.ts';
import { idempotencyKeysOf } from './repro-keys.ts';

export interface DeliveryReplayOptions {
  title: string;
  report: string;
  baseUrl: string;
  symptom: DeliverySymptom;
  headline: string;
}

/** What both files are written from: the requests to send, the values they produce, the keys they need and what to judge. */
export interface Replay {
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

/** The record of a delivery failure's replay, from the exchanges that led to it. */
export function deliveryReplayOf(exchanges: readonly Exchange[], options: DeliveryReplayOptions): Replay {
  const sent = exchanges.map(retargeted);
  const produced = sent.flatMap((exchange, index) => producedBy(exchange, index + 1));
  const keys = ['SECMON_API_KEY', 'SECMON_READ_KEY'].filter((variable) =>
    sent.some((e) =>
      Object.values(e.request.headers).some((value) => value.includes(variable === 'SECMON_API_KEY' ? '<api-key>' : '<read-key>')),
    ),
  );
  const idempotency = idempotencyKeysOf(sent);
  return {
    sent,
    produced,
    options,
    keys,
    extra: [...RECEIVER_STAND_INS, ...idempotency],
    freshKeys: idempotency.map(([, variable]) => variable),
    watched: { event: options.symptom.event, paths: watchedPaths(sent) },
  };
}

/** How to run it, what the target must reach, and what the kit said: the files' opening comment lines. */
export function about(options: DeliveryReplayOptions, keys: string[], command: string, notes: string[] = []): string[] {
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
