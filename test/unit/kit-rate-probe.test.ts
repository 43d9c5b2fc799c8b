// How far the 429 probe may go by default: the quota of a development server on this machine, but
// only a few hundred requests on anything else, so a production target with a large quota is not
// used up and its probe, not run, still fails the gate unless declared.
import { describe, expect, it } from 'vitest';
import { defaultRateProbeMax } from '../../packages/contract/src/kit/options.ts';
import { loadConfig } from '../../server/config.ts';

describe('the 429 probe’s default limit', () => {
  it('covers a development server’s default quota on the loopback', () => {
    const development = loadConfig({});
    expect(development.mode).toBe('development');
    for (const url of ['http://127.0.0.1:3000', 'http://localhost:3000/', 'http://[::1]:8080', 'http://127.0.1.1:80']) {
      expect(defaultRateProbeMax(url), url).toBeGreaterThanOrEqual(development.rateLimitPerMinute);
    }
  });

  it('stays at 300 for any other host, a private address included', () => {
    for (const url of ['https://api.example.com', 'http://10.0.0.5:3000', 'http://localhost.example.com', 'http://0.0.0.0:3000']) {
      expect(defaultRateProbeMax(url), url).toBe(300);
    }
  });
});
