// One version, one contract: the gate fails a change to the contract that keeps the released
// version number, names the step it needs, asks for the changelog entry of a new number, and
// refuses edited releases. Rewording a description may keep the number.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingEntry } from '../../scripts/breaking/changelog.ts';
import { readDocument } from '../../scripts/breaking/check.ts';
import { compareReleases } from '../../scripts/breaking/compare.ts';
import { bumpNeeded, implementationChanges, sentenceChanges } from '../../scripts/breaking/obligations.ts';
import { root } from '../../scripts/pipeline.ts';
import { GATE_RUNS_MS, gateOnEdited } from './gate.ts';

const REGION_HEADER = { name: 'X-Service-Region', in: 'header', required: true, schema: { type: 'string', maxLength: 32 } };
const addRegionHeader = { 'webhooks/finding-created.yaml': (doc: any) => doc.post.parameters.push(REGION_HEADER) };
const version = (v: string) => ({ 'openapi.yaml': (doc: any) => (doc.info.version = v) });
const changelog = readFileSync(join(root, 'openapi/CHANGELOG.md'), 'utf8');
const withEntry = (v: string) =>
  changelog.replace(
    '## 1.1.0',
    `## ${v}\n\n### For clients\n\n- \`X-Service-Region\` on \`finding.created\`.\n\n### For implementations\n\n- Send it.\n\n## 1.1.0`,
  );

describe('what 1.1.0 changed, as the gate classifies it', () => {
  const [base, revision] = ['v1.0.0.json', 'v1.1.0.json'].map((file) => readDocument(join(root, 'openapi/releases', file)));
  const report = compareReleases(base!, revision!);
  const changes = implementationChanges(base!, revision!, report);

  it('compatible for clients, new obligations for implementations: a minor version', () => {
    expect(report.breaking).toEqual([]);
    expect(bumpNeeded(report, changes, true)).toBe('minor');
    const obligations = changes.filter((c) => c.impact === 'new obligation').map((c) => c.message);
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(obligations).toContain(`webhook finding.created: the header ${header} parameter was added`);
    expect(obligations).toContain('GET /v1/policies: response 503 was added');
    expect(obligations).toContain(`a new rule sentence: "Requests with a valid key from the same address are not affected."`);
  });

  it('a moved sentence is unchanged, a reworded one is named, one that adds a header is a changed rule', () => {
    const edited = structuredClone(revision!) as any;
    edited.info.description = edited.info.description
      .replace(/Event\s+bodies\s+are\s+at\s+most\s+64\s+KiB\./, 'Event bodies are at most 64 KiB in size.')
      .replace(
        /Nothing\s+is\s+dropped\s+while\s+the\s+circuit\s+is\s+open\./,
        'Nothing is dropped while the circuit is open, and `X-Circuit` says so.',
      );
    const found = sentenceChanges(revision!, edited);
    expect(found.map((c) => c.impact).sort()).toEqual(['new obligation', 'reworded']);
    expect(found.find((c) => c.impact === 'new obligation')!.message).toContain('adding `X-Circuit`');
    expect(sentenceChanges(base!, base!)).toEqual([]);
    // 1.1.0 moved the retry and ordering sentences under a new heading, and renumbered the X-Service-Event parameter.
    expect(changes.filter((c) => /A retry sends the byte-identical body|The event type, the same as/.test(c.message))).toEqual([]);
  });
});

describe('a changelog entry', () => {
  it('is a "## <version>" section listing changes for clients and for implementations', () => {
    expect(missingEntry(changelog, '1.1.0')).toBeUndefined();
    expect(missingEntry(changelog, '1.2.0')).toBe('it has no "## 1.2.0" section');
    const clientsOnly = '## 1.2.0\n\n### For clients\n\n- A new header.\n\n### For implementations\n\n## 1.1.0\n';
    expect(missingEntry(clientsOnly, '1.2.0')).toBe('its "## 1.2.0" section lists nothing under "### For implementations"');
  });
});

describe.concurrent('npm run check:breaking and info.version', () => {
  it(
    'fails a new required delivery header that keeps the released number, naming the version it needs',
    async () => {
      const result = await gateOnEdited('header-no-bump', addRegionHeader);
      expect(result.stderr).toContain('For clients: 0 breaking, 1 compatible change(s).');
      expect(result.stderr).toContain('+ new obligation  #/webhooks/finding.created/post/parameters/');
      expect(result.stderr).toContain(
        '✗ the contract differs from the released 1.1.0 but info.version is still 1.1.0: these changes need a minor version, 1.2.0',
      );
      expect(result.status).toBe(1);
    },
    GATE_RUNS_MS,
  );

  it(
    'passes the same change as 1.2.0 once the changelog has its entry, and asks for the entry until then',
    async () => {
      const unlisted = await gateOnEdited('header-1.2.0', { ...addRegionHeader, ...version('1.2.0') });
      expect(unlisted.stderr).not.toContain('these changes need');
      expect(unlisted.stderr).toContain(
        '✗ the changelog of the contract (openapi/CHANGELOG.md) needs the entry for 1.2.0: it has no "## 1.2.0" section',
      );
      expect(unlisted.status).toBe(1);
      const listed = await gateOnEdited('header-1.2.0-listed', {
        ...addRegionHeader,
        ...version('1.2.0'),
        'CHANGELOG.md': withEntry('1.2.0'),
      });
      expect(listed.stderr).toBe('');
      expect(listed.stdout).toContain('Version: 1.1.0 → 1.2.0; the changes need a minor version.');
      expect(listed.status).toBe(0);
    },
    GATE_RUNS_MS,
  );

  it(
    'a patch step is not enough for a new obligation; an older number is refused',
    async () => {
      const patch = await gateOnEdited('header-1.1.1', { ...addRegionHeader, ...version('1.1.1'), 'CHANGELOG.md': withEntry('1.1.1') });
      expect(patch.stderr).toContain('✗ info.version 1.1.1 is a patch step from 1.1.0; these changes need a minor version, 1.2.0');
      expect(patch.status).toBe(1);
      const older = await gateOnEdited('older', version('1.0.9'));
      expect(older.stderr).toContain('✗ info.version 1.0.9 is older than the newest release, 1.1.0');
      expect(older.status).toBe(1);
    },
    GATE_RUNS_MS,
  );

  it(
    'lets a description that only rewords keep the number, and fails one that adds a rule sentence',
    async () => {
      const reworded = await gateOnEdited('reworded', {
        'components/parameters/StandardIdHeader.yaml': (doc: any) =>
          (doc.description = doc.description.replace('so identical on', 'so it is identical on')),
      });
      expect(reworded.stdout).toContain('~ reworded  /components/parameters/StandardIdHeader/description');
      expect(reworded.stdout).toContain('Version: 1.1.0 → 1.1.0; the changes need a patch version.');
      expect(reworded.status).toBe(0);
      const rule = await gateOnEdited('new-rule', {
        'components/parameters/StandardIdHeader.yaml': (doc: any) => (doc.description += ' It is at most 64 characters long.'),
      });
      expect(rule.stderr).toContain('a new rule sentence: "It is at most 64 characters long."');
      expect(rule.stderr).toContain('these changes need a minor version, 1.2.0');
      expect(rule.status).toBe(1);
    },
    GATE_RUNS_MS,
  );

  it(
    'fails when a released bundle was edited',
    async () => {
      const edited = readDocument(join(root, 'openapi/releases/v1.0.0.json'));
      edited.info.title = 'SecMon API, amended';
      const result = await gateOnEdited('edited-release', { 'releases/v1.0.0.json': JSON.stringify(edited, null, 2) });
      expect(result.stderr).toContain('✗ v1.0.0.json changed after its release');
      expect(result.status).toBe(1);
    },
    GATE_RUNS_MS,
  );
});
