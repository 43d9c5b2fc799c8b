// The gate as a user runs it: edit a copy of openapi/ (the sources, not the bundle), run the
// command line with `--source <copy>` and no other step, and read its exit code and output (gate.ts).
// Each case is one edit the gate used to miss.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listOperations, listWebhookOperations } from '../../packages/api/src/document.ts';
import { defaultSource, readDocument } from '../../scripts/breaking/check.ts';
import { newestRelease } from '../../scripts/breaking/releases.ts';
import { editedSources, GATE_RUNS_MS, gate, gateCommand, scratch } from './gate.ts';

// An additive change is a new minor version with its changelog entry.
const released = (version: string) => ({
  'openapi.yaml': (doc: any) => (doc.info.version = version),
  'CHANGELOG.md': `# Changelog\n\n## ${version}\n\n### For clients\n\n- An addition.\n\n### For implementations\n\n- Send it.\n`,
});

describe('the released document', () => {
  it('is the newest under openapi/releases/: v1.1.0, with its 15 operations and 6 events', () => {
    const path = newestRelease(join(defaultSource, 'releases'));
    const release = readDocument(path);
    expect(path.endsWith('v1.1.0.json')).toBe(true);
    expect(release.info.version).toBe('1.1.0');
    expect(listOperations(release)).toHaveLength(15);
    expect(listWebhookOperations(release)).toHaveLength(6);
  });
});

describe.concurrent('npm run check:breaking on edited sources', () => {
  it(
    'passes the sources as they are, saying what it compared (the command, in a process of its own)',
    async () => {
      const result = await gateCommand([]);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('check:breaking: no change in openapi/ (bundled now) against openapi/releases/v1.1.0.json\n');
      expect(result.status).toBe(0);
    },
    GATE_RUNS_MS,
  );

  const breaking: [string, Record<string, (doc: any) => void>, string][] = [
    [
      'an enum value removed',
      { 'components/schemas/Severity.yaml': (doc) => doc.enum.pop() },
      '✗ enum-value-removed  #/components/schemas/Severity/enum  (breaks clients, receivers)',
    ],
    [
      'a 412 response removed',
      { 'paths/policies@{id}.yaml': (doc) => delete doc.put.responses['412'] },
      '✗ status-code-removed  #/paths/~1v1~1policies~1{id}/put/responses/412  (breaks clients)',
    ],
    [
      'a required query parameter on a path item',
      {
        'paths/policies@{id}.yaml': (doc) =>
          doc.parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }),
      },
      '✗ required-parameter-added  #/paths/~1v1~1policies~1{id}/parameters/1  (breaks clients)',
    ],
    [
      'a request media type changed',
      {
        'paths/policies.yaml': (doc) => {
          doc.post.requestBody.content['application/vnd.secmon+json'] = doc.post.requestBody.content['application/json'];
          delete doc.post.requestBody.content['application/json'];
        },
      },
      '✗ media-type-removed  #/paths/~1v1~1policies/post/requestBody/content/application~1json  (breaks clients)',
    ],
    [
      'the bearer scheme became an API-key header',
      { 'openapi.yaml': (doc) => (doc.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-API-Key' }) },
      '✗ security-scheme-changed  #/components/securitySchemes/bearerAuth  (breaks clients)',
    ],
    [
      'a new required scope',
      { 'paths/policies.yaml': (doc) => doc.get.security[0].bearerAuth.push('admin') },
      '✗ security-scope-added  #/paths/~1v1~1policies/get/security  (breaks clients)',
    ],
    [
      'a request field default changed',
      { 'components/schemas/PolicyWrite.yaml': (doc) => (doc.properties.enabled.default = false) },
      '    true → false',
    ],
    [
      'a delivery header no longer always sent',
      { 'components/parameters/DeliveryHeader.yaml': (doc) => (doc.required = false) },
      '(breaks receivers)',
    ],
  ];

  for (const [name, edits, expected] of breaking) {
    it(
      `fails on ${name}, from the edit alone`,
      async () => {
        const result = await gate(['--source', editedSources(name.replaceAll(' ', '-'), edits)]);
        expect(result.stderr).toContain(expected);
        expect(result.status).toBe(1);
      },
      GATE_RUNS_MS,
    );
  }

  it(
    'follows the Versioning section on enums the service sends: a value removed fails, a value added passes in a new minor version and is listed',
    async () => {
      const removed = await gate([
        '--source',
        editedSources('platform-removed', {
          'components/schemas/DeviceConnectedEvent.yaml': (doc) => doc.properties.data.properties.platform.enum.pop(),
        }),
      ]);
      expect(removed.stderr).toContain(
        '✗ enum-value-removed  #/components/schemas/DeviceConnectedEvent/properties/data/properties/platform/enum  (breaks receivers)',
      );
      expect(removed.status).toBe(1);
      const added = editedSources('severity-added', {
        'components/schemas/Severity.yaml': (doc) => doc.enum.push('urgent'),
        ...released('1.2.0'),
      });
      expect((await gate(['--source', added])).status).toBe(0);
      const markdown = await gate(['--source', added, '--format', 'markdown']);
      expect(markdown.stdout).toContain('- the value "urgent" was added (`#/components/schemas/Severity/enum`; for clients, receivers)');
      expect(markdown.status).toBe(0);
    },
    GATE_RUNS_MS,
  );

  it(
    'says in one line that a --source folder does not exist',
    async () => {
      const result = await gate(['--source', join(scratch, 'no-such-folder')]);
      expect(result.stderr).toBe(
        `check:breaking: --source ${join(scratch, 'no-such-folder')}: no such folder (it should hold openapi.yaml and releases/)\n`,
      );
      expect(result.status).toBe(2);
    },
    GATE_RUNS_MS,
  );

  it(
    'passes an additive edit in a new minor version, and its markdown changelog lists the additions',
    async () => {
      const source = editedSources('additive', {
        ...released('1.2.0'),
        'components/schemas/PolicyWrite.yaml': (doc) => (doc.properties.owner = { type: 'string', maxLength: 64 }),
        'components/schemas/Policy.yaml': (doc) => (doc.properties.owner = { type: ['string', 'null'], maxLength: 64 }),
      });
      const text = await gate(['--source', source]);
      expect(text.status).toBe(0);
      const markdown = await gate(['--source', source, '--format', 'markdown']);
      expect(markdown.stdout).toContain('## Breaking changes (0)');
      expect(markdown.stdout).toContain('- the field owner was added (`#/components/schemas/PolicyWrite/properties/owner`; for clients)');
      expect(markdown.stdout).toContain('- the field owner was added (`#/components/schemas/Policy/properties/owner`; for clients)');
      expect(markdown.status).toBe(0);
    },
    GATE_RUNS_MS,
  );

  it(
    '--revision and --base compare given bundles; --format json gives rule, oasdiff ids, pointer, old → new and who breaks',
    async () => {
      const base = newestRelease(join(defaultSource, 'releases'));
      const edited = readDocument(base) as any;
      edited.components.schemas.Severity.enum = ['low', 'high'];
      const revision = join(scratch, 'revision.json');
      writeFileSync(revision, JSON.stringify(edited));
      const result = await gate(['--revision', revision, '--base', base, '--format', 'json']);
      expect(result.status).toBe(1);
      const report = JSON.parse(result.stdout);
      expect(report.breaking).toContainEqual({
        rule: 'enum-value-removed',
        oasdiff: expect.arrayContaining(['request-property-enum-value-removed']),
        pointer: '#/components/schemas/Severity/enum',
        message: 'the value "critical" was removed',
        before: ['info', 'low', 'medium', 'high', 'critical'],
        after: ['low', 'high'],
        breaks: ['clients', 'receivers'],
      });
      expect((await gate(['--revision', base, '--base', base])).status).toBe(0);
    },
    GATE_RUNS_MS,
  );

  it(
    'exits 2 on a usage error or sources that do not bundle (the command, in a process of its own)',
    async () => {
      const format = await gateCommand(['--format', 'xml']);
      expect(format.stderr).toBe('check:breaking: --format must be one of text, json, markdown\n');
      expect(format.status).toBe(2);
      const broken = editedSources('broken', { 'openapi.yaml': (doc) => (doc.paths['/v1/policies'].$ref = 'paths/missing.yaml') });
      const bundle = await gateCommand(['--source', broken]);
      expect(bundle.stderr).toContain('check:breaking: @redocly/cli/bin/cli.js bundle failed');
      expect(bundle.status).toBe(2);
    },
    GATE_RUNS_MS,
  );
});
