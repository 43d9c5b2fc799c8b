// The frontend guide's mock examples, run against the mock as written: each `curl` of the guide's
// mock section (the host swapped for the test's mock) must get the status its comment ends with, so
// the guide cannot drift from what the mock answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { curlStatus, shellBlocks, statusesOf } from '../../../test/guides/markdown.ts';
import { staticMock } from '../../../test/support/static-mock.ts';
import type { MockServer } from '../src/prism.ts';

interface Example {
  comment: string;
  commands: string[];
  statuses: number[];
}

/** The sh block of docs/frontend.md that shows requests to the mock: comment lines, then their curls. */
function guideExamples(): Example[] {
  const block = shellBlocks('docs/frontend.md').find((text) => text.includes('curl') && text.includes('localhost:4010'))!;
  const examples: Example[] = [];
  for (const chunk of block.split(/\n\s*\n/)) {
    const lines = chunk
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter(Boolean);
    const comment = lines.find((line) => line.startsWith('#'))!;
    const statuses = statusesOf(comment);
    examples.push({ comment, commands: lines.filter((line) => line.startsWith('curl ')), statuses });
  }
  return examples;
}

describe('the frontend guide’s mock examples', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await staticMock();
  });

  const examples = guideExamples();
  it('has examples, each with its curl lines and their statuses', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const example of examples) expect(example.commands.length, example.comment).toBe(example.statuses.length);
  });

  it.each(examples.map((example) => [example.comment, example] as const))('%s', async (_comment, example) => {
    const host = new URL(mock.url).host;
    const statuses = [];
    for (const command of example.commands) statuses.push(await curlStatus(command, 'localhost:4010', host));
    expect(statuses).toEqual(example.statuses);
  });
});
