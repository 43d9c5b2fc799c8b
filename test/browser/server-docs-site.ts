// The reference server's /docs, started through its public factory with a freshly built page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocs, committed } from '../../scripts/pipeline.ts';
import { testConfig } from '../../server/config.ts';
import { startServer } from '../../server/server.ts';
import type { DocsSite } from './docs-in-browser.ts';

export async function serverDocsSite(): Promise<DocsSite> {
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
}
