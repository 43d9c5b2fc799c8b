// The versions the kit can judge and since which version each rule applies: computed from the
// released bundles the kit carries, by how each release's sentences continue the previous one's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../lib/document.ts';
import { listReleases } from '../../scripts/breaking/releases.ts';
import { root } from '../../scripts/pipeline.ts';
import { RELEASED_DOCUMENTS } from '../contract/kit/releases.ts';
import { CATALOGUE } from '../contract/kit/rules/catalogue.ts';
import { contractVersions, ruleInVersion } from '../contract/kit/versions.ts';

const doc = loadDocument();
const versions = contractVersions(doc);
const sinceOf = (id: string) => {
  const entry = CATALOGUE.find((e) => e.id === id)!;
  return versions.since(entry.at, entry.text);
};
const idOf = (text: string) => CATALOGUE.find((e) => e.text.startsWith(text))!.id;

describe('the versions the kit carries', () => {
  it('are every bundle in openapi/releases/, oldest first, the newest being the document the kit checks', () => {
    expect(RELEASED_DOCUMENTS.map((d) => d.info.version)).toEqual(listReleases(join(root, 'openapi/releases')).map((r) => r.version));
    expect(versions.versions).toEqual(['1.0.0', '1.1.0']);
    expect(RELEASED_DOCUMENTS.at(-1)).toEqual(doc);
  });

  it('date each rule: 1.0.0 for what 1.0.0 said (also moved or reworded), 1.1.0 for what it added or changed', () => {
    expect(sinceOf(idOf('Send an API key as a bearer token'))).toBe('1.0.0');
    expect(sinceOf(idOf('Anything else (other statuses, time-outs, refused or reset connections) is retried'))).toBe('1.0.0');
    expect(sinceOf(idOf('The Standard Webhooks message id'))).toBe('1.1.0');
    expect(sinceOf(idOf('Each API key has a quota per window'))).toBe('1.1.0');
    expect(sinceOf(idOf('Failed authentication (no key, or an unknown one) is also limited'))).toBe('1.1.0');
    const eventHeader = CATALOGUE.find((e) => e.at === '/webhooks/finding.created/post/parameters/4/description')!;
    expect(versions.since(eventHeader.at, eventHeader.text)).toBe('1.0.0');
    const counts = Object.groupBy(CATALOGUE, (e) => versions.since(e.at, e.text));
    expect(Object.keys(counts).sort()).toEqual(['1.0.0', '1.1.0']);
    expect(counts['1.1.0']!.length).toBeGreaterThan(50);
  });

  it('a document ahead of the newest release is judged as its own version', () => {
    const ahead = structuredClone(doc);
    ahead.info.version = '1.2.0';
    ahead.info.description += '\n\nEvery response carries `X-Request-Id`.';
    const next = contractVersions(ahead);
    expect(next.versions).toEqual(['1.0.0', '1.1.0', '1.2.0']);
    expect(next.since('/info/description', 'Every response carries `X-Request-Id`.')).toBe('1.2.0');
    expect(sinceOf(idOf('Send an API key as a bearer token'))).toBe('1.0.0');
  });

  it('a rule belongs to its version and every later one', () => {
    expect(ruleInVersion('1.0.0', '1.1.0')).toBe(true);
    expect(ruleInVersion('1.1.0', '1.1.0')).toBe(true);
    expect(ruleInVersion('1.1.0', '1.0.0')).toBe(false);
    expect(ruleInVersion('1.10.0', '1.9.0')).toBe(false);
  });
});
