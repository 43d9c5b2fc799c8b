// The reference server's /docs in Chromium, including Redoc's links opened in a new tab (the
// server redirects them into the page). docs-page.scenario.test.ts serves the same bytes as a plain file;
// docs-walk.scenario.test.ts walks every section of this page (`npm run bench:scenarios`).
import { describeDocsInBrowser } from './docs-in-browser.ts';
import { serverDocsSite } from './server-docs-site.ts';

describeDocsInBrowser('server-docs', serverDocsSite, { deepLinks: true });
