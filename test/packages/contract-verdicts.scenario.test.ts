// The packed kit's verdict on stand-ins that break rules: the reference server behind a fault proxy,
// one short default run each, read as a CI log is read. Each rule is proven in `npm test` by its
// fault against the check alone (the proof ledger, packages/contract/test/proofs/, and
// model-faults.test.ts); these repeat it through `npx --no-install secmon-contract` from a tarball.
import { afterAll, describe, expect, it } from 'vitest';
import { disabledButDelivering, targetIgnored } from '../../packages/contract/test/delivery-faults.ts';
import { all, requestHeader } from '../../packages/contract/test/fault-dsl.ts';
import { type Fault, startFaultProxy } from '../../packages/contract/test/fault-proxy.ts';
import { preflightWithPathMethods } from '../../packages/contract/test/path-methods.ts';
import { targetPool } from '../../packages/contract/test/reference-target.ts';
import { machineNode, outsiderEnv, run } from '../../scripts/outsider.ts';
import { installedBeforeAll } from './installed.ts';

// The runs go side by side (they wait on the kit's processes); each stand-in is a reference server
// of its own behind a fault proxy, so one run's events never reach another's webhooks.
const references = targetPool(2);
afterAll(() => references.close());

describe.concurrent('npx secmon-contract against stand-ins that break rules', () => {
  const kit = installedBeforeAll('contract-verdicts', (tarballs) => [tarballs.contract]);

  /** The packed kit's verdict on the reference server behind `fault`: a short default run. */
  async function verdictOn(fault: Fault) {
    return references.use(async (reference) => {
      const standIn = await startFaultProxy(reference.server.url, fault);
      try {
        const args = ['--base-url', standIn.url, '--api-key', reference.kit.apiKey, '--read-key', reference.kit.readKey!];
        return await run(
          'npx',
          ['--no-install', 'secmon-contract', ...args, '--cases', '8', '--rate-probe', 'skip', '--compressed-retries'],
          { cwd: kit.dir, env: outsiderEnv(machineNode()), timeoutMs: 180_000 },
        );
      } finally {
        await standIn.close();
      }
    });
  }

  it('fails a stand-in that compares If-Match weakly, shrinking to a sequence that names the rule', async () => {
    const result = await verdictOn(requestHeader('if-match', (value) => value.replace(/^W\//, '')));
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('check "model-sequences" failed (breaks rule idempotency-and-concurrency.3');
    expect(result.output).toMatch(/shortest failing sequence \(2 steps, seed \d+/);
    expect(result.output).toContain('gate FAILED');
  }, 200_000);

  it('fails a stand-in delivering to disabled webhooks and test events to every subscriber, and passes its preflights', async () => {
    const result = await verdictOn(all(disabledButDelivering, targetIgnored, preflightWithPathMethods));
    expect(result.code, result.output).toBe(1);
    expect(result.output).toMatch(/check "delivery-attribution" failed \(breaks rule [^)]*schema\.WebhookCreate\.2/);
    expect(result.output).toMatch(/check "delivery-attribution" failed \(breaks rule [^)]*test-support-not-part-of-the-v1-contract\.4/);
    expect(result.output).toMatch(/✓ \[\d+\/\d+\] [^\n]* › cors/);
    expect(result.output).not.toMatch(/✗ [^\n]* › cors/);
  }, 200_000);
});
