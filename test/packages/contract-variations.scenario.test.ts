// The packed kit against a stand-in that varies only what the document leaves open, all at once:
// no simulator route (events raised by a command that carries no ids and names no webhook), a
// fixed quota window per key with `t` rounded up, the first 2xx of every delivery lost on its way
// back, and every delivery delayed 0–1.5 s and reordered. A default run passes the gate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { all } from '../../packages/contract/test/fault-dsl.ts';
import { startFaultProxy } from '../../packages/contract/test/fault-proxy.ts';
import {
  broadcastingCommand,
  delayedDeliveries,
  fixedWindows,
  lostAcknowledgements,
  withoutSimulator,
} from '../../packages/contract/test/legal-variations.ts';
import { machineNode, outsiderEnv, run } from '../../scripts/outsider.ts';
import { installedBeforeAll } from './installed.ts';
import { referenceBeforeAll } from './reference.ts';

const reference = referenceBeforeAll();

describe('npx secmon-contract on legal variations', () => {
  const kit = installedBeforeAll('contract-variations', (tarballs) => [tarballs.contract]);

  it('passes a stand-in with a trigger command, fixed quota windows, lost acknowledgements and late, reordered deliveries', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'kit-variations-'));
    const standIn = await startFaultProxy(
      reference.server.url,
      all(withoutSimulator, fixedWindows(300, 4, 4000, 0), lostAcknowledgements(), delayedDeliveries()),
    );
    try {
      const args = ['--base-url', standIn.url, '--api-key', reference.kit.apiKey, '--read-key', reference.kit.readKey!];
      const command = broadcastingCommand(scratch, reference.server.url, machineNode());
      const result = await run(
        'npx',
        ['--no-install', 'secmon-contract', ...args, '--cases', '4', '--compressed-retries', '--trigger-command', command],
        { cwd: kit.dir, env: outsiderEnv(machineNode()), timeoutMs: 280_000 },
      );
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain('gate PASSED');
      expect(result.output).toMatch(/✓ \[\d+\/\d+\] listPolicies \(GET \/v1\/policies\) › rate-limit-429/);
    } finally {
      await standIn.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});
