// Settings → Integrations (`/settings/integrations`): the page where a person configures webhooks.
// Served by the reference server in every mode; it holds no data of its own and calls /v1 with the
// key its user gives it. The browser code is bundled by esbuild on first request (it is built from
// packages/api/src/, so it can never drift from the client package) and sent compressed with a strong ETag.
import { readFileSync } from 'node:fs';
import compression from 'compression';
import { build } from 'esbuild';
import { type Request, type Response, Router } from 'express';
import type { Mode } from '../config.ts';
import { sendCached } from '../http/etag.ts';
import { digests } from '../platform.ts';

export const SETTINGS_PATH = '/settings/integrations';

interface Asset {
  body: string;
  etag: string;
  type: string;
}

const asset = (body: string, type: string): Asset => ({ body, type, etag: digests.etagOfBytes(body) });

/** The page's script: app.ts and the parts of packages/api/src/ it uses, one minified ES module. */
export async function bundleSettingsApp(): Promise<string> {
  const result = await build({
    entryPoints: [new URL('./app.ts', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export function settingsRouter(mode: Mode): Router {
  const router = Router();
  const page = asset(readFileSync(new URL('./page.html', import.meta.url), 'utf8').replace('{{MODE}}', mode), 'text/html; charset=utf-8');
  let script: Promise<Asset> | undefined;
  const send = (req: Request, res: Response, asset: Asset) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; style-src 'self' 'unsafe-inline'");
    sendCached(req, res, asset);
  };
  router.use(compression());
  router.get('/', (req, res) => send(req, res, page));
  router.get('/app.js', async (req, res, next) => {
    try {
      send(req, res, await (script ??= bundleSettingsApp().then((js) => asset(js, 'text/javascript; charset=utf-8'))));
    } catch (error) {
      script = undefined;
      next(error);
    }
  });
  return router;
}
