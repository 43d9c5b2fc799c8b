// The document lints clean, bundles, and the committed generated files equal a fresh generation.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle, committed, docsBuildReason, generateAnswers, generatedIn, generateTypes, lint } from '../../scripts/pipeline.ts';

const scratch = mkdtempSync(join(tmpdir(), 'secmon-pipeline-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('document pipeline', () => {
  it('lints with zero errors and zero warnings', () => {
    const output = lint(); // throws (non-zero exit) on any error
    expect(output).not.toMatch(/warning/i);
    expect(output).toMatch(/valid/i);
  });

  describe('drift check: generated/ equals a fresh generation', () => {
    const fresh = generatedIn(scratch);
    bundle(fresh);
    generateTypes(fresh);
    generateAnswers(fresh);
    for (const key of ['yaml', 'json', 'types', 'answers'] as const) {
      it(`generated/${fresh[key].split('/').pop()} is up to date (run \`npm run generate\` if not)`, () => {
        expect(readFileSync(committed[key], 'utf8')).toBe(readFileSync(fresh[key], 'utf8'));
      });
    }
    it('the JSON and YAML bundles hold the same document', async () => {
      const { parse } = await import('yaml');
      expect(parse(readFileSync(fresh.yaml, 'utf8'))).toEqual(JSON.parse(readFileSync(fresh.json, 'utf8')));
    });
  });

  it('npm start says why it builds the docs page: missing on a fresh clone, or older than the document', () => {
    const page = join(scratch, 'docs.html');
    expect(docsBuildReason(committed.json, page)).toMatch(/docs\.html is not built yet; building it/);
    writeFileSync(page, '<!doctype html><title>an old page</title>');
    expect(docsBuildReason(committed.json, page)).toMatch(/docs\.html is older than the document or how it is rendered; building it/);
  });
});
