// secmon-msw as a frontend team meets it: packed, installed from its tarball (with secmon-api, msw,
// Vitest and TypeScript from the registry) into a fresh project holding examples/frontend. There
// the example's own Vitest suite and the README's run on msw/node, tsc accepts them and rejects
// each misuse at its line, and in Chromium an esbuild bundle with the service worker (`msw init`)
// lists findings, reports one and sees it listed. A second project installs secmon-msw alone, for
// its footprint.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { installedPackages, npmInstall, run } from '../../scripts/outsider.ts';
import { root } from '../../scripts/pipeline.ts';
import { launchChromium } from '../browser/chromium.ts';
import { readmeExample } from './examples.ts';
import { installedBeforeAll, rootManifest, scratchProject } from './installed.ts';
import { expectRejectedAtMark } from './misuse.ts';

const { devDependencies } = rootManifest;
const EXAMPLE = join(root, 'examples/frontend');
const frontend = installedBeforeAll('frontend', (tarballs) => [tarballs.client, tarballs.msw], {
  copyOf: EXAMPLE,
  // The README's Vitest example, beside the example's own suite: run and type-checked with it.
  files: { 'readme.test.ts': readmeExample('msw', 'ts') },
  registry: [
    `msw@${devDependencies.msw}`,
    `vitest@${devDependencies.vitest!.replace(/^\^/, '')}`,
    `typescript@${devDependencies.typescript}`,
  ],
});

const node = (script: string, args: string[], timeoutMs = 120_000) =>
  run(process.execPath, [join(frontend.dir, 'node_modules', script), ...args], { cwd: frontend.dir, timeoutMs });

describe('secmon-msw in a fresh frontend project', () => {
  it("runs the example's Vitest suite and the README's on msw/node: 15 operations, a refused request, scenarios, every story", async () => {
    const result = await node('vitest/vitest.mjs', ['run', '--reporter=verbose']);
    expect(result.output).toMatch(/Tests\s+9 passed \(9\)/);
    expect(result.code, result.output).toBe(0);
  });

  const tsc = (config: string) => node('typescript/bin/tsc', ['--pretty', 'false', '-p', config]);

  it('type-checks the app, its test and stories with declarations of dependencies checked', async () => {
    const result = await tsc('tsconfig.json');
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  const misuse = readdirSync(join(EXAMPLE, 'misuse')).filter((file) => file.endsWith('.ts'));
  let misuseRun: ReturnType<typeof tsc> | undefined;
  it.each(misuse)('rejects misuse/%s at its marked line, naming the culprit', async (file) => {
    expectRejectedAtMark(join(EXAMPLE, 'misuse'), file, await (misuseRun ??= tsc('misuse/tsconfig.json')));
  });

  it('in Chromium, with the service worker from `msw init`, the stateful page lists findings, reports one and lists it', async () => {
    const init = await node('msw/cli/index.js', ['init', 'public', '--no-save']);
    expect(init.code, init.output).toBe(0);
    await build({
      absWorkingDir: frontend.dir,
      entryPoints: ['page.ts'],
      outfile: join(frontend.dir, 'public/page.js'),
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      logLevel: 'silent',
    });
    cpSync(join(frontend.dir, 'index.html'), join(frontend.dir, 'public/index.html'));
    const site = await serve(join(frontend.dir, 'public'));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${site.url}/index.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
      const before = Number(await page.getAttribute('#findings', 'data-count'));
      expect(before).toBeGreaterThan(0);
      await page.fill('#title', 'Reported from the browser');
      await page.click('button');
      await page.waitForSelector(`#findings[data-count="${before + 1}"]`, { timeout: 20_000 });
      expect(await page.textContent('#findings li:first-child')).toBe('Reported from the browser (medium, open)');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      site.server.close();
    }
  }, 60_000);
});

describe('the footprint of secmon-msw alone', () => {
  it('installs without Prism, Express or a database driver; its size and dependency count are printed', async () => {
    const alone = scratchProject('msw-alone');
    await npmInstall(alone, [frontend.tarballs.msw]);
    const installed = installedPackages(alone);
    const forbidden = installed.filter((name) => /^(@stoplight\/|express$|pg$|better-sqlite3$|pino$)/.test(name));
    expect(forbidden).toEqual([]);
    expect(installed).toContain('msw');
    const kib = Number(spawnSync('du', ['-sk', join(alone, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0]);
    const own = Number(spawnSync('du', ['-sk', join(alone, 'node_modules/secmon-msw')], { encoding: 'utf8' }).stdout.split('\t')[0]);
    console.log(
      `secmon-msw footprint: ${installed.length} packages installed (msw peer included), node_modules ${kib} KiB, secmon-msw itself ${own} KiB`,
    );
    expect(installed.length).toBeLessThan(80);
  }, 300_000);
});

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const file = join(dir, new URL(req.url ?? '/', 'http://site').pathname);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}
