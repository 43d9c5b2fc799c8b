// The versions the kit can judge and since which version each rule applies: computed from the
// released bundles the kit carries, by how each release's sentences continue the previous one's.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadDocument } from 'secmon-api/src/document';
import { describe, expect, it } from 'vitest';
import { listReleases } from '../../../scripts/breaking/releases.ts';
import { root } from '../../../scripts/pipeline.ts';
import { RELEASED_DOCUMENTS } from '../src/kit/releases.ts';
import { CATALOGUE } from '../src/kit/rules/catalogue.ts';
import { statusOf } from '../src/kit/rules/rule.ts';
import { judgeViolations, newInClause, versionJudge } from '../src/kit/version-judge.ts';
import { contractVersions, ruleInVersion } from '../src/kit/versions.ts';
import type { Violation } from '../src/kit/violation.ts';

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

describe('judging violations by version', () => {
  const violation = (fields: Partial<Violation>): Violation => ({
    check: 'delivery',
    observed: 'x',
    expected: 'y',
    exchanges: [],
    ...fields,
  });
  const entry = (id: string) => CATALOGUE.find((e) => e.id === id)!;
  const ruled = (id: string) => violation({ rule: id as Violation['rule'], sentence: entry(id).text, pointer: entry(id).at });
  const newRule = ruled(idOf('The Standard Webhooks message id'));
  const oldRule = ruled(idOf('Send an API key as a bearer token'));
  const newHeader = violation({ pointer: '#/components/parameters/StandardIdHeader/schema' });
  const oldSchema = violation({ pointer: '#/components/schemas/Policy' });
  const unnamed = violation({});

  it('judged as the newest version, keeps every violation and names the version of what 1.0.0 did not have', () => {
    const { judged, notInTarget } = judgeViolations(versionJudge(doc), [newRule, oldRule, newHeader, oldSchema, unnamed]);
    expect(notInTarget).toEqual([]);
    expect(judged.map((j) => j.newIn)).toEqual(['1.1.0', undefined, '1.1.0', undefined, undefined]);
    expect(newInClause(judged)).toBe(`new in 1.1.0: rule ${newRule.rule}, #/components/parameters/StandardIdHeader/schema`);
  });

  it('judged as 1.0.0, sets aside what 1.1.0 introduced and keeps the rest', () => {
    const { judged, notInTarget } = judgeViolations(versionJudge(doc, '1.0.0'), [newRule, oldRule, newHeader, oldSchema, unnamed]);
    expect(judged.map((j) => j.violation)).toEqual([oldRule, oldSchema, unnamed]);
    expect(notInTarget.map((n) => [n.violation, n.since])).toEqual([
      [newRule, '1.1.0'],
      [newHeader, '1.1.0'],
    ]);
  });

  it('refuses a version the kit does not carry, naming those it does', () => {
    expect(() => versionJudge(doc, '2.0.0')).toThrow('--contract-version 2.0.0: this kit judges versions 1.0.0, 1.1.0');
  });
});

describe('secmon-contract --rules and --version', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, ['packages/contract/src/cli.ts', ...args], { cwd: root, encoding: 'utf8' });

  it('--rules says since which version each rule applies', () => {
    const lines = cli(['--rules']).stdout.split('\n');
    const sinceOfRule = (id: string) => lines[lines.findIndex((line) => line.trimStart().startsWith(`${id} `)) + 1]!.trim();
    expect(sinceOfRule(idOf('The Standard Webhooks message id'))).toMatch(/^since 1\.1\.0; checks: /);
    expect(sinceOfRule(idOf('Send an API key as a bearer token'))).toMatch(/^since 1\.0\.0; checks: /);
  });

  it('--rules --contract-version 1.0.0 lists and counts what 1.0.0 states: --rules less the rules new in 1.1.0', () => {
    const all = cli(['--rules']).stdout;
    const old = cli(['--rules', '--contract-version', '1.0.0']);
    expect(old.status).toBe(0);
    const listed = (text: string) => [...text.matchAll(/^ {2}(\S+) +\[[a-z ]+\] /gm)].map((match) => match[1]!);
    const newer = CATALOGUE.filter((entry) => !ruleInVersion(versions.since(entry.at, entry.text), '1.0.0'));
    expect(newer.length).toBeGreaterThan(0);
    expect(listed(old.stdout)).toEqual(listed(all).filter((id) => !newer.some((entry) => entry.id === id)));
    expect(old.stdout).not.toContain('since 1.1.0');
    const rules = newer.filter((entry) => statusOf(entry) !== 'informative').length;
    const counted = (text: string) => Number(/^(\d+) rules in /m.exec(text)![1]);
    expect(counted(all) - counted(old.stdout)).toBe(rules);
    expect(old.stdout).toMatch(/^\d+ rules in the descriptions of version 1\.0\.0: /m);
    expect(old.stdout).toContain(`not in 1.0.0: ${rules} rules and ${newer.length - rules} informative sentences of later versions`);
  });

  it('--rules with a version it does not judge: the error and where the usage is, exit 2', () => {
    const result = cli(['--rules', '--contract-version', '0.9.0']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "secmon-contract: --contract-version 0.9.0: this kit judges versions 1.0.0, 1.1.0\nRun 'secmon-contract --help' for its usage.\n",
    );
  });

  it('--version lists the versions it can judge', () => {
    expect(cli(['--version']).stdout).toBe(
      `secmon-contract 1.1.0 (checks SecMon API 1.1.0)\nversions of the contract it can judge (--contract-version): 1.0.0, 1.1.0\n`,
    );
  });
});
