// The reference server's /docs, started through its public factory with a freshly built page,
// including Redoc's links opened in a new tab (the server redirects them into the page). Every
// section is walked here, where integrators read the page; docs-page.test.ts serves the same bytes
// as a plain file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocs, committed } from '../../scripts/pipeline.ts';
import { testConfig } from '../../server/config.ts';
import { startServer } from '../../server/server.ts';
import { describeDocsInBrowser } from './docs-in-browser.ts';

describeDocsInBrowser(
  'server-docs',
  async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'secmon-server-docs-'));
    const docsPath = join(scratch, 'docs.html');
    buildDocs(committed.json, docsPath);
    const server = await startServer(testConfig({ docsPath }));
    return {
      url: `${server.url}/docs`,
      close: async () => {
        await server.close();
        rmSync(scratch, { recursive: true, force: true });
      },
    };
  },
  { deepLinks: true, everySection: true },
);
