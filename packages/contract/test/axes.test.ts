// The behaviour space: its cells come from the document, and a default run against the reference
// server (as `npm start` runs it: the development quota, the documented retry schedule) exercises
// every cell the document states that a run from outside can reach.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadDocument } from 'secmon-api/src/document';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer } from '../../../scripts/server-process.ts';
import { statedStatuses } from '../src/kit/axes/answers.ts';
import { behaviourSpace } from '../src/kit/axes/index.ts';
import { cellKey } from '../src/kit/axes/space.ts';
import { buildModel } from '../src/kit/spec.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

const model = buildModel(loadDocument());
const keys = new Set(behaviourSpace(model).map(cellKey));

describe('the behaviour space, from the document', () => {
  it('has every finding status change, to itself included, as the status enum and its transition table give them', () => {
    for (const [from, to, kind] of [
      ['resolved', 'resolved', 'the status it has'],
      ['resolved', 'suppressed', 'refused'],
      ['in_progress', 'open', 'allowed'],
    ])
      expect(keys).toContain(`states | findings status change | ${from} → ${to} (${kind})`);
  });

  it('has each body schema keyword at its boundary, inside and outside, in characters', () => {
    expect(keys).toContain('boundaries | PolicyWrite.name maxLength 128 | 128 astral characters (inside)');
    expect(keys).toContain('boundaries | PolicyWrite.name maxLength 128 | 129 characters (outside)');
    expect(keys).toContain(
      'boundaries | FindingCreate.first_seen_at date-time profile (Z only) | RFC 3339 with an offset instead of Z (outside)',
    );
    expect(keys).toContain(
      'boundaries | WebhookCreate additionalProperties false | unknown member "kit/slash", pointer /body/kit~1slash (outside)',
    );
  });

  it('has the media-type spellings of every operation that takes a body, and a cross-cutting cell per stated status', () => {
    const withBody = model.operations.filter((op) => op.body);
    for (const op of withBody) expect(keys).toContain(`media types | ${op.label} | application/json; charset=utf-8 (inside)`);
    const statuses = new Set(model.operations.flatMap((op) => [...op.responses.keys()].filter((s) => /^\d{3}$/.test(s)).map(Number)));
    expect(statedStatuses(model)).toEqual([...statuses].sort((a, b) => a - b));
    for (const status of statuses) expect(keys).toContain(`cross-cutting rules | CORS (allow-origin, exposed headers) | ${status}`);
  });
});

describe('a default run against the reference server', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill();
  });

  // Both as `npm start` and the README's line run them: the server and the kit each in its own
  // process, the development keys, the documented retry schedule.
  it('passes and exercises every cell of the behaviour space a run can reach', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secmon-axes-'));
    // A third of the development quota: the 429 probe proves the same at a third of the requests.
    server = await spawnServer({ SECMON_DB: join(dir, 'secmon.db'), SECMON_RATE_LIMIT: '3000' });
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, '--base-url', server.url, '--api-key', 'dev-admin', '--read-key', 'dev-reader', '--coverage'],
      { encoding: 'utf8', timeout: 420_000, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: `exit status not 0\n${error.stdout ?? ''}` }));
    const space = stdout.slice(stdout.indexOf('Behaviour space'));
    expect(
      stdout.split('\n').filter((line) => line.startsWith('✗ ')),
      space,
    ).toEqual([]);
    expect(space.match(/^.*NOT exercised$/gm) ?? [], space).toEqual([]);
    const [, exercised, reachable] = /^(\d+) of (\d+) cells exercised/m.exec(space) ?? [];
    expect(Number(exercised)).toBeGreaterThan(0);
    expect(exercised).toBe(reachable);
    rmSync(dir, { recursive: true, force: true });
    // Under 30 s on an idle machine; the margin is for a machine other work shares.
  }, 450_000);
});
