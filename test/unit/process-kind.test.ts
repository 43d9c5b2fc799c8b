// bench:suite charges each process on the machine to a kind by its command line
// (bench/process-sampler.ts): the kinds the suite's processes fall into.
import { describe, expect, it } from 'vitest';
import { processKind } from '../../bench/process-sampler.ts';

const ROOT = '/work/repo';
const kind = (line: string) => processKind(line.split(' '), ROOT);

describe('the kind a process is charged to', () => {
  it.each([
    ['/usr/lib/chromium/chromium --type=renderer --no-sandbox', 'Chromium'],
    ['/usr/lib/postgresql/15/bin/postgres -D /tmp/cluster', 'PostgreSQL'],
    [
      `${ROOT}/node_modules/node/bin/node --require ${ROOT}/node_modules/vitest/suppress-warnings.cjs --conditions secmon-source worker.js`,
      'vitest workers',
    ],
    ['node /usr/bin/npm install --no-audit a.tgz', 'npm, npx'],
    ['node /usr/lib/node_modules/npm/bin/npm-cli.js exec --yes=false', 'npm, npx'],
    [
      `${ROOT}/node_modules/node/bin/node --import ${ROOT}/packages/mock/src/exit-with-parent.ts ${ROOT}/node_modules/@stoplight/prism-cli/dist/index.js mock a.yaml`,
      '@stoplight/prism-cli',
    ],
    [`${ROOT}/node_modules/node/bin/node ${ROOT}/server/main.ts --port 0`, 'server/main.ts'],
    ['/usr/bin/node /tmp/outsider/node_modules/secmon-contract/dist/cli.js --help', 'secmon-contract (installed)'],
    ['/usr/bin/node /tmp/outsider/page.js', 'a script in a scratch folder'],
    ['/usr/bin/node /tmp/outsider/node_modules/.bin/secmon-mock --help', 'secmon-mock (installed)'],
    ['npm install a.tgz', 'npm, npx'],
    ['node --input-type=module -e 1', 'node -e'],
    ['/usr/bin/esbuild --service=0.28.2 --ping', 'esbuild'],
  ])('%s: %s', (line, expected) => {
    expect(kind(line)).toBe(expected);
  });
});
