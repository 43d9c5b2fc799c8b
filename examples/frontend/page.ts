// The dashboard in a browser with no server: the stateful handlers in a service worker
// (`npx msw init public` copies mockServiceWorker.js), so a finding the page reports stays listed.
import { setupWorker } from 'msw/browser';
import { createSecmonClient } from 'secmon-api';
import { createSecmonMsw } from 'secmon-msw';
import { loadFindings, reportFinding } from './findings.ts';

const worker = setupWorker(...createSecmonMsw({ stateful: true }).handlers);
await worker.start({ quiet: true, onUnhandledFrame: 'bypass' });

const client = createSecmonClient({ baseUrl: location.origin, apiKey: 'storybook-or-dev-key' });
const list = document.querySelector<HTMLElement>('#findings')!;
const show = async () => {
  const view = await loadFindings(client);
  list.innerHTML = view.html;
  list.dataset.count = String(view.count);
};
document.querySelector('form')!.addEventListener('submit', async (event) => {
  event.preventDefault();
  const title = document.querySelector<HTMLInputElement>('#title')!.value;
  await reportFinding(client, title, 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1');
  await show();
});
await show();
document.body.dataset.ready = 'true';
