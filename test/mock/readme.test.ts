// The README's mock examples, run against the mock as written: each `curl` of the frontend section
// (the host swapped for the test's mock) must get the status its comment ends with, so the README
// cannot drift from what the mock answers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from '../../mock/prism.ts';
import { root } from '../../scripts/pipeline.ts';

interface Example {
  comment: string;
  commands: string[];
  statuses: number[];
}

/** The sh block of "For frontend teams" that shows requests: comment lines, then their curls. */
function readmeExamples(): Example[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## For frontend teams'), readme.indexOf('**What the static mock does not do.**'));
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).find((text) => text.includes('curl'))!;
  const examples: Example[] = [];
  for (const chunk of block.split(/\n\s*\n/)) {
    const lines = chunk
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter(Boolean);
    const comment = lines.find((line) => line.startsWith('#'))!;
    const statuses = (/→ (.+)$/.exec(comment)?.[1] ?? '').match(/\d{3}/g)!.map(Number);
    examples.push({ comment, commands: lines.filter((line) => line.startsWith('curl ')), statuses });
  }
  return examples;
}

function curlStatus(command: string, mockHost: string): Promise<number> {
  const line = `${command.replaceAll('localhost:4010', mockHost)} -o /dev/null -w '%{http_code}'`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(Number(out.trim())));
  });
}

describe('the README’s mock examples', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());

  const examples = readmeExamples();
  it('has examples, each with its curl lines and their statuses', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const example of examples) expect(example.commands.length, example.comment).toBe(example.statuses.length);
  });

  it.each(examples.map((example) => [example.comment, example] as const))('%s', async (_comment, example) => {
    const host = new URL(mock.url).host;
    const statuses = [];
    for (const command of example.commands) statuses.push(await curlStatus(command, host));
    expect(statuses).toEqual(example.statuses);
  });
});
