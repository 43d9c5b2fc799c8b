// A failure as something a team can replay without reading the kit: the exchanges that led to it
// written as a shell script of curl commands and as an .http file (httpyac's format, on the command
// line and in VS Code, which JetBrains' HTTP Client reads too). Keys appear as $SECMON_API_KEY /
// $SECMON_READ_KEY, never by value. What the target made up during the run (ids, ETags, cursors) is
// taken from the replay's own answers, so the requests reach the resources the replay creates, not
// the run's (deleted since); a list is preceded by the creates that filled it (repro-needed.ts);
// each Idempotency-Key is new at every run (repro-keys.ts). Both end with a verdict: the last
// answer judged against what the kit expected ("reproduced" or "not reproduced").
// A fault that shows in a delivery rather than an answer is replayed by repro-delivery.ts instead,
// from the same parts.
import type { Exchange } from './http.ts';
import { httpJudge, type Symptom, shellJudge } from './repro-judge.ts';
import { httpFreshKeys, idempotencyKeysOf, shellFreshKeys } from './repro-keys.ts';

/** A value an answer gave that later requests use: where it comes from, and how each format names it. */
export interface Produced {
  value: string;
  step: number;
  from: { field: string } | { header: string };
  shell: string;
  http: string;
}

export interface Reproduction {
  /** The replay to run alone: a POSIX shell script of curl commands, or a Node ES module (a delivery's, which starts its own receiver). */
  script: string;
  /** How to run `script`: `sh <file>.sh` or `node <file>.mjs`. */
  runner: 'sh' | 'node';
  http: string;
}

interface ReplayOptions {
  title: string;
  report: string;
  baseUrl: string;
  /** What the last answer shows while the fault is there, and the headline to print then. */
  verdict?: { symptom: Symptom; headline: string };
}

export const KEYS: [role: string, variable: string][] = [
  ['<api-key>', 'SECMON_API_KEY'],
  ['<read-key>', 'SECMON_READ_KEY'],
];
// Shorter values could occur in a request by chance.
const SHORTEST_PRODUCED = 6;
const FIELDS = ['id', 'next_cursor'];

export function producedBy(exchange: Exchange, step: number): Produced[] {
  if (exchange.status < 200 || exchange.status >= 300) return [];
  const json = exchange.json as Record<string, unknown> | undefined;
  const produced: Produced[] = [];
  for (const field of FIELDS) {
    const value = json?.[field];
    if (typeof value === 'string' && value.length >= SHORTEST_PRODUCED)
      produced.push({
        value,
        step,
        from: { field },
        shell: `${field.toUpperCase()}_${step}`,
        http: `{{${field.toUpperCase()}_${step}}}`,
      });
  }
  const etag = exchange.headers.get('etag');
  if (etag && etag.length >= SHORTEST_PRODUCED)
    produced.push({ value: etag, step, from: { header: 'etag' }, shell: `ETAG_${step}`, http: `{{ETAG_${step}}}` });
  return produced;
}

/**
 * What to replace in step `step`'s request, longest values first so a value that contains another
 * is replaced whole: the target's URL, the keys by role, the values earlier answers produced, and
 * `extra` literals; each with the name of the variable it becomes.
 */
export function literalsOf(
  produced: readonly Produced[],
  baseUrl: string,
  step: number,
  extra: readonly (readonly [literal: string, variable: string])[] = [],
): (readonly [literal: string, variable: string])[] {
  const byLength = produced.filter((p) => p.step < step).sort((a, b) => b.value.length - a.value.length);
  return [[baseUrl, 'SECMON_BASE_URL'], ...KEYS, ...extra, ...byLength.map((p) => [p.value, p.shell] as const)];
}

/** The .http file's name of a variable: the file's own for the target and keys, `{{NAME}}` for the others. */
const HTTP_NAMES: Record<string, string> = { SECMON_BASE_URL: 'baseUrl', SECMON_API_KEY: 'apiKey', SECMON_READ_KEY: 'readKey' };
export const httpVariable = (variable: string) => `{{${HTTP_NAMES[variable] ?? variable}}}`;

/** Both formats of one failure's exchanges; `baseUrl` is the target's, replaced by a variable. */
export function reproduction(exchanges: Exchange[], options: ReplayOptions): Reproduction {
  const produced = exchanges.flatMap((exchange, index) => producedBy(exchange, index + 1));
  const idempotency = idempotencyKeysOf(exchanges);
  const named = (step: number, name: (variable: string) => string) =>
    literalsOf(produced, options.baseUrl, step, idempotency).map(([literal, variable]) => [literal, name(variable)] as const);
  const written: Written = { exchanges, produced, options, freshKeys: idempotency.map(([, variable]) => variable) };
  return {
    script: shellScript(written, (step) => named(step, (variable) => `\${${variable}}`)),
    runner: 'sh',
    http: httpFile(written, (step) => named(step, httpVariable)),
  };
}

export type Substitutions = (step: number) => (readonly [literal: string, replacement: string])[];

/** `text` with every literal replaced, as pieces: literal text, or a replacement. */
export function pieces(text: string, substitutions: ReturnType<Substitutions>): { text: string; variable: boolean }[] {
  for (const [literal, replacement] of substitutions) {
    const at = text.indexOf(literal);
    if (literal === '' || at < 0) continue;
    return [
      ...pieces(text.slice(0, at), substitutions),
      { text: replacement, variable: true },
      ...pieces(text.slice(at + literal.length), substitutions),
    ];
  }
  return text === '' ? [] : [{ text, variable: false }];
}

/** One shell word: literal text single-quoted, variables double-quoted. */
function shellWord(text: string, substitutions: ReturnType<Substitutions>): string {
  const parts = pieces(text, substitutions).map((piece) =>
    piece.variable ? `"${piece.text}"` : `'${piece.text.replaceAll("'", `'\\''`)}'`,
  );
  return parts.join('') || "''";
}

export const commented = (text: string) =>
  text
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n');

const SHELL_HELPERS = `out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# send <step> <what the run got> <curl arguments>: sends, prints the answer, keeps it for later steps.
send() {
  step=$1; was=$2; shift 2
  printf '\\n### %s. %s (the run got %s)\\n' "$step" "$1 $2" "$was"
  curl -sS -o "$out/$step.body" -D "$out/$step.head" -X "$@" || echo "(no answer)"
  cat "$out/$step.head" "$out/$step.body" 2>/dev/null; echo
}
# field <step> <name>: a string field of that step's JSON answer (node reads it: the kit needs Node anyway).
field() {
  node -e 'try { const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]; if (typeof v === "string") process.stdout.write(v); } catch {}' "$out/$1.body" "$2"
}
# header <step> <name>: a header of that step's answer.
header() {
  grep -i "^$2:" "$out/$1.head" | head -n 1 | sed 's/^[^:]*: *//' | tr -d '\\r'
}`;

/** What both files are written from: the requests, the values their answers produce, and the Idempotency-Key variables made new at each run. */
interface Written {
  exchanges: Exchange[];
  produced: Produced[];
  options: ReplayOptions;
  freshKeys: readonly string[];
}

function shellScript({ exchanges, produced, options, freshKeys }: Written, substitutions: Substitutions): string {
  const keys = KEYS.filter(([role]) => exchanges.some((e) => e.request.headers.Authorization?.includes(role))).map(([, v]) => v);
  const steps = exchanges.map((exchange, index) => {
    const step = index + 1;
    const { method, url, headers, body } = exchange.request;
    const subs = substitutions(step);
    const args = [
      method,
      shellWord(url, subs),
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', shellWord(`${name}: ${value}`, subs)]),
    ];
    if (body !== undefined) args.push('--data-binary', shellWord(body, subs));
    const captures = produced
      .filter((p) => p.step === step)
      .map((p) => `${p.shell}=$(${'field' in p.from ? `field ${step} ${p.from.field}` : `header ${step} ${p.from.header}`})`);
    return [`send ${step} ${exchange.status} ${args.join(' ')}`, ...captures].join('\n');
  });
  return [
    '#!/bin/sh',
    `# secmon-contract reproduction: ${options.title}`,
    '# Replays, in order, the requests that led to this failure and prints every answer; the last',
    '# ones show the fault. Needs curl and node. Run it against the same target:',
    `#   SECMON_BASE_URL=${options.baseUrl}${keys.map((k) => ` ${k}=…`).join('')} sh <this file>`,
    '# It creates what the run created (names start with "kit-"); delete it afterwards if needed.',
    '#',
    '# What the kit reported:',
    commented(options.report),
    '',
    'set -u',
    `: "\${SECMON_BASE_URL:=${options.baseUrl}}"`,
    ...keys.map((k) => `: "\${${k}:?set ${k} to the key the run used}"`),
    ...shellFreshKeys(freshKeys),
    SHELL_HELPERS,
    '',
    ...steps,
    ...(options.verdict ? [shellJudge(exchanges.length, options.verdict.symptom, options.verdict.headline)] : []),
    ...(exchanges.length === 0 ? NOTHING_TO_SEND.shell : []),
    '',
  ].join('\n');
}

function httpFile({ exchanges, produced, options, freshKeys }: Written, substitutions: Substitutions): string {
  const verdict = options.verdict;
  const requests = httpRequests(exchanges, produced, substitutions, {
    before: (step) => (step === 1 ? httpFreshKeys(freshKeys) : []),
    after: (step) => (verdict && step === exchanges.length ? ['', httpJudge(verdict.symptom, verdict.headline)] : []),
  });
  return [
    `# secmon-contract reproduction: ${options.title}`,
    '# Send the requests in order; the last ones show the fault, and the last handler says whether it is',
    '# still there. Headless: SECMON_BASE_URL=… SECMON_API_KEY=… npx httpyac send <this file> --all',
    '# (exits non-zero when reproduced). Keys come from the environment (SECMON_API_KEY,',
    '# SECMON_READ_KEY); in JetBrains, set apiKey and readKey in http-client.private.env.json.',
    '#',
    '# What the kit reported:',
    commented(options.report),
    '',
    ...HTTP_VARIABLES,
    '',
    ...(exchanges.length === 0 ? NOTHING_TO_SEND.http : requests),
  ].join('\n');
}

// A failure the run judged without a request of its own leading to it has nothing to send: its replay
// says so, and exits 2 (neither reproduced nor not) rather than pass in silence.
const NOT_REPLAYABLE =
  'not replayable: the run recorded no request that led to this failure; what the kit reported is at the top of this file';
const NOTHING_TO_SEND = {
  shell: [`echo '${NOT_REPLAYABLE}' >&2`, 'exit 2'],
  http: [`# ${NOT_REPLAYABLE}`],
};

/** The .http file's variables: the target and the keys, from the environment. */
export const HTTP_VARIABLES = [
  '@baseUrl = {{$processEnv SECMON_BASE_URL}}',
  '@apiKey = {{$processEnv SECMON_API_KEY}}',
  '@readKey = {{$processEnv SECMON_READ_KEY}}',
];

/**
 * The .http file's requests, each named `step<n>`, with a handler keeping what later ones use;
 * `around` adds lines of script before a step's request line or after its handler.
 */
export function httpRequests(
  exchanges: readonly Exchange[],
  produced: readonly Produced[],
  substitutions: Substitutions,
  around: { before?(step: number): string[]; after?(step: number): string[] } = {},
): string[] {
  const plain = (text: string, step: number) =>
    pieces(text, substitutions(step))
      .map((piece) => piece.text)
      .join('');
  return exchanges.map((exchange, index) => {
    const step = index + 1;
    const { method, url, headers, body } = exchange.request;
    return [
      `### ${step}. ${method} (the run got ${exchange.status})`,
      `# @name step${step}`,
      ...(around.before?.(step) ?? []),
      `${method} ${plain(url, step)}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${plain(value, step)}`),
      ...(body === undefined ? [] : ['', plain(body, step)]),
      ...handler(produced.filter((p) => p.step === step)),
      ...(around.after?.(step) ?? []),
      '',
    ].join('\n');
  });
}

/** A response handler keeping what later requests use (httpyac and JetBrains run these). */
function handler(produced: Produced[]): string[] {
  if (produced.length === 0) return [];
  const reads = produced.map((p) =>
    'field' in p.from
      ? `  client.global.set(${JSON.stringify(p.shell)}, response.body.${p.from.field});`
      : `  client.global.set(${JSON.stringify(p.shell)}, response.headers.valueOf(${JSON.stringify(p.from.header)}));`,
  );
  return ['', '> {%', ...reads, '%}'];
}
