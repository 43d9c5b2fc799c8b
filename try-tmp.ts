import { startServer } from './server/server.ts';
import { testConfig } from './server/config.ts';
const s = await startServer(testConfig({ rateLimitPerMinute: 0 }));
const h = { authorization: 'Bearer dev-admin', 'content-type': 'application/json' };
for (const [path, body] of [
  ['/v1/policies', { name: 'x', severity: 'high', frameworks: Array.from({ length: 33000 }, () => ({ framework: 1, control: [] })) }],
  ['/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: Array.from({ length: 85000 }, () => 'nope.nope') }],
  ['/v1/policies', { name: 'x', severity: 'high', ...Object.fromEntries(Array.from({ length: 90000 }, (_, i) => [`f${i}`, 1])) }],
] as const) {
  const json = JSON.stringify(body);
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = await fetch(s.url + path, { method: 'POST', headers: h, body: json });
    const text = await r.text();
    console.log(path, json.length, r.status, text.length, JSON.parse(text).detail, (performance.now() - t).toFixed(0), 'ms');
  }
}
await s.close();
