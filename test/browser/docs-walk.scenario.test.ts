// Every section of the reference server's /docs walked in Chromium, where integrators read the
// page: each operation's curl and client samples, each event, each schema (about a minute).
import { describeDocsInBrowser } from './docs-in-browser.ts';
import { serverDocsSite } from './server-docs-site.ts';

describeDocsInBrowser('docs-walk', serverDocsSite, { everySection: true });
