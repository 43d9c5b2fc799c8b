// The page `npm run docs` renders (dist/docs.html), built into a scratch folder and served from a
// loopback server as a plain file, the way a reader opens it: it renders and works offline. The same
// checks run in `npm test` on the same bytes served at the reference server's /docs
// (server-docs.test.ts), and test/document/docs.test.ts holds the file self-contained; its sections
// are walked one by one in docs-walk.scenario.test.ts.

import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocs, committed } from '../../scripts/pipeline.ts';
import { describeDocsInBrowser } from './docs-in-browser.ts';

describeDocsInBrowser('docs-html', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'secmon-docs-browser-'));
  const file = join(scratch, 'docs.html');
  buildDocs(committed.json, file);
  const html = readFileSync(file);
  const server = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/docs.html') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/docs.html`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(scratch, { recursive: true, force: true });
    },
  };
});
