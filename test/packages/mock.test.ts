// secmon-mock as a frontend or receiver team meets it: packed, installed from its tarball into a
// fresh project outside this repository, its mock server run from the installed bin and its event
// sender with npx, each answering --help.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../packages/api/src/signing.ts';
import { outsiderEnv, run } from '../../scripts/outsider.ts';
import { document } from './examples.ts';
import { installedBeforeAll, installedBin, listen } from './installed.ts';

// Each test runs processes of its own from the installed package: side by side.
describe.concurrent('secmon-mock, the mock and the event sender', () => {
  const mock = installedBeforeAll('mock', (tarballs) => [tarballs.mock]);

  // The installed bin itself rather than npx, so the SIGTERM reaches the mock as a supervisor's would.
  it('secmon-mock serves the documented examples and stops on SIGTERM', async (test) => {
    const child = spawn(installedBin(mock.dir, 'secmon-mock'), ['--port', '0'], {
      cwd: mock.dir,
      env: outsiderEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    test.onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /mock ready on (http:\/\/[\d.]+:\d+)/.exec(output);
        if (ready) resolve(ready[1]!);
      });
      child.on('exit', () => reject(new Error(`secmon-mock exited before it was ready:\n${output}`)));
    });
    const response = await fetch(`${url}/v1/policies`, { headers: { authorization: 'Bearer any-key-at-all' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string }[] };
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data[0]!.id).toMatch(/^pol_/);
    const unauthorized = await fetch(`${url}/v1/policies`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('content-type')).toContain('application/problem+json');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, output).toBe(0);
  }, 60_000);

  it('npx secmon-events sends every event type, signed, to a receiver', { timeout: 60_000 }, async () => {
    const secret = 'whsec_outsider_receiver';
    const received: { event: string | undefined; valid: boolean }[] = [];
    const receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({
        event: req.headers['x-service-event'] as string | undefined,
        valid: verifySignature(Buffer.concat(chunks), req.headers['x-service-signature'], secret),
      });
      res.writeHead(204).end();
    });
    const url = `${await listen(receiver)}/hooks`;
    try {
      const result = await run('npx', ['--no-install', 'secmon-events', '--url', url, '--secret', secret], { cwd: mock.dir });
      expect(result.code, result.output).toBe(0);
      expect(new Set(received.map((r) => r.event))).toEqual(new Set(Object.keys(document.webhooks!)));
      expect(received.every((r) => r.valid)).toBe(true);
    } finally {
      receiver.close();
    }
  });

  // The installed bins, as npm links them: npx's own part is proven by the event sender above, and
  // each npx start is an npm start-up (about a second of CPU).
  it.each(['secmon-mock', 'secmon-events'])(
    '%s answers --help and -h with its usage, an unknown option with a pointer to it',
    async (bin) => {
      const installed = installedBin(mock.dir, bin);
      for (const flag of ['--help', '-h']) {
        const help = await run(installed, [flag], { cwd: mock.dir });
        expect(help.code, help.output).toBe(0);
        expect(help.stdout).toMatch(new RegExp(`^usage: ${bin} `));
      }
      const refused = await run(installed, ['--no-such-option'], { cwd: mock.dir });
      expect(refused.code).toBe(2);
      expect(refused.output).toBe(`${bin}: Unknown option '--no-such-option'\nRun '${bin} --help' for its usage.\n`);
    },
    60_000,
  );
});
