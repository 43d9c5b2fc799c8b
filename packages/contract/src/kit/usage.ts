// The CLI's options, written once: `--help` prints them and the README's *Options* table is the
// same rows (packages/contract/test/usage.test.ts holds the README to this list).
import type { ParseArgsConfig } from 'node:util';
import { HELP_OPTION } from '../../../../common/cli.ts';

/** One row: the flags as Markdown code (`|` escaped for the table), and what they do. */
export interface OptionDoc {
  flags: string;
  text: string;
}

export const OPTIONS: readonly OptionDoc[] = [
  {
    flags: '`--base-url <url>`, `--api-key <key>`',
    text: 'the implementation (its `/v1` paths are appended) and a key with `read` and `write` (required)',
  },
  {
    flags: '`--read-key <key>`',
    text: "a key with only `read`: enables the 403 checks (skipped and reported without it); the kit then sends its `GET`s with it, on its own quota, so reads do not use up the API key's",
  },
  {
    flags: '`--profile stateful\\|stateless`',
    text: '`stateless` (a mock) skips only the checks that need state, and says so in the table',
  },
  { flags: '`--report <file>`', text: 'JUnit XML, relative to the folder you run it in (see *Reports*)' },
  {
    flags: '`--repro-dir <dir>`',
    text: "write each failure's reproduction there: a shell script of curl commands and an `.http` file (default: `repro/` beside `--report`; none without either); see *Replaying a failure*",
  },
  { flags: '`--seed <n>`', text: 'seed of every generated case (default fixed, so runs repeat); a failure names the seed to repeat it' },
  {
    flags: '`--cases <n>`',
    text: 'generated valid and invalid cases per operation, the cap on repeats (bad values per parameter, filter values), and twice the model-based sequences, default 24',
  },
  { flags: '`--time-budget <s>`', text: "fit the run into `s` seconds at the target's quota (see *Fitting a quota*)" },
  {
    flags: '`--rate-probe-max <n>`',
    text: 'use up the quota to provoke a 429 only if `RateLimit-Policy` `q` ≤ n (default 300; 20000 for a target on this machine’s loopback, a development server whose quota costs nobody else)',
  },
  {
    flags: '`--rate-probe check\\|skip`',
    text: '`skip` declares the 429 probe out of scope; otherwise a probe that cannot run fails the gate',
  },
  {
    flags: '`--known-limits <file>`',
    text: 'JSON `[{ "check", "subject", "reason" }]`: failures shown as known limits, not hidden; a named one that passes fails (remove it)',
  },
  {
    flags: '`--events check\\|skip\\|skip:<types>`',
    text: '`skip` declares every event check out of scope (a target that cannot reach the receiver; webhooks the kit creates then point at `https://secmon-contract.invalid`); `skip:device.connected,scan.completed` only those',
  },
  {
    flags: "`--trigger-command '<command>'`",
    text: 'raises the events no operation causes on an implementation without `POST /_simulator/events` (see *Raising events*)',
  },
  {
    flags: '`--receiver-url <url>`, `--receiver-listen [host:]port`',
    text: 'the receiver listens locally (default `127.0.0.1`, a free port); give the URL the target reaches it at (a tunnel or CI service) for a production-mode target',
  },
  {
    flags: '`--event-timeout <ms>`',
    text: "how long to wait for the kit's own deliveries (default 15000); while the target is still sending first attempts of other deliveries the wait follows, up to 4 times as long",
  },
  { flags: '`--no-foreign-deliveries`', text: 'refuse to run (exit 2) when enabled webhooks the kit did not create would get its events' },
  {
    flags: '`--cors-origin <origin>`',
    text: 'an origin the target allows for browsers; without it the CORS check tries `http://localhost:5173` and is skipped if the target does not allow it',
  },
  {
    flags: '`--compressed-retries`',
    text: 'the target compresses its webhook retry schedule (a test setting): the wait before the first retry and after a `Retry-After` are then not judged',
  },
  {
    flags: '`--contract-version <v>`',
    text: 'the version of the contract the target implements (default: the newest the kit carries; `--version` lists them): only that version\'s rules are judged, and a failure of a rule a later version introduced says "new in <version>" (see *Versions of the contract*)',
  },
  {
    flags: '`--rules`',
    text: 'print every rule of the document (each sentence of its descriptions) with the version it applies since, its checks and status; with `--base-url`, after the run, with each verdict (see *Rules*)',
  },
  {
    flags: '`--coverage`',
    text: "after the run, print the behaviour space the document defines, one line per cell (a resource state and the read after it, a request schema keyword's boundary inside and outside, a media-type spelling, a receiver answer at the first attempt and at a retry, a header held against the clock, a cross-cutting rule on a class of answer) with the checks that exercised it or NOT exercised; a cell a run cannot reach says why (see *Behaviour space*)",
  },
  {
    flags: '`--allow-newer-fields`',
    text: "accept response and event fields and enum values this document does not list (a target ahead of this version, as the document's *Versioning* section allows); by default they are violations of this exact version",
  },
  {
    flags: '`--version`, `-h`, `--help`',
    text: "the kit's version, the document version it checks and the versions of the contract it can judge; the usage",
  },
];

/** What the CLI parses: every key must be one of the documented flags (usage.test.ts). */
export const ACCEPTED = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'read-key': { type: 'string' },
  profile: { type: 'string', default: 'stateful' },
  report: { type: 'string' },
  'repro-dir': { type: 'string' },
  seed: { type: 'string' },
  cases: { type: 'string' },
  'rate-probe-max': { type: 'string' },
  'known-limits': { type: 'string' },
  events: { type: 'string', default: 'check' },
  'time-budget': { type: 'string' },
  'rate-probe': { type: 'string', default: 'check' },
  'trigger-command': { type: 'string' },
  'no-foreign-deliveries': { type: 'boolean' },
  'receiver-url': { type: 'string' },
  'receiver-listen': { type: 'string' },
  'event-timeout': { type: 'string' },
  'allow-newer-fields': { type: 'boolean' },
  'cors-origin': { type: 'string' },
  'compressed-retries': { type: 'boolean' },
  'contract-version': { type: 'string' },
  rules: { type: 'boolean' },
  coverage: { type: 'boolean' },
  version: { type: 'boolean' },
  ...HELP_OPTION,
} as const satisfies ParseArgsConfig['options'];

const HEADER = `usage: secmon-contract --base-url <url> --api-key <key> [options]
       secmon-contract receiver --url <receiver> (checks a webhook receiver; receiver --help)`;

const FOOTER = `Everything the kit creates is deleted at the end, also on failure and on Ctrl-C; its names start
with "kit-". It paces itself by the target's RateLimit headers and says when it waits.
Exit status: 0 every check passed and every operation and event is covered or declared out of
scope; 1 a violation, a coverage gap, or an event or 429 probe that could not run and was not
declared; 2 bad options, no answer from the target, or --no-foreign-deliveries refused;
130/143 interrupted.`;

/** The README's table: its header and one row per option. */
export function optionsTable(): string {
  return ['| option | what it does |', '|---|---|', ...OPTIONS.map((option) => `| ${option.flags} | ${option.text} |`)].join('\n');
}

const WIDTH = 100;
/** Where the texts start; longer flags get a line of their own. */
const COLUMN = 28;
const plain = (markdown: string) => markdown.replace(/[`*]/g, '').replace(/\\\|/g, '|');

/** `--help`: each option with its text wrapped beside it. */
export function usage(): string {
  const lines = OPTIONS.flatMap((option) => {
    const flags = `  ${plain(option.flags)}`;
    const text = wrap(plain(option.text), WIDTH - COLUMN).map((line) => `${''.padEnd(COLUMN)}${line}`);
    if (flags.length + 2 > COLUMN) return [flags, ...text];
    return [`${flags.padEnd(COLUMN)}${text[0]!.trimStart()}`, ...text.slice(1)];
  });
  return [HEADER, '', ...lines, '', FOOTER].join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
