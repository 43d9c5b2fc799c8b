// Settings → Integrations (`/settings/integrations`): the page where a person configures webhooks.
// Served by the reference server in every mode; it holds no data of its own and calls /v1 with the
// key its user gives it. The browser code is bundled by esbuild on first request (it is built from
// lib/, so it can never drift from the client package) and sent compressed with a strong ETag.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import compression from 'compression';
import { build } from 'esbuild';
import { Router, type Request, type Response } from 'express';
import type { Mode } from '../config.ts';

export const SETTINGS_PATH = '/settings/integrations';

interface Asset {
  body: string;
  etag: string;
  type: string;
}

const asset = (body: string, type: string): Asset => ({ body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });

/** The page's script: app.ts and the parts of lib/ it uses, one minified ES module. */
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
  const send = (req: Request, res: Response, { body, etag, type }: Asset) => {
    // Revalidated on every load, so a new server version is picked up at once.
    res.set({ 'Content-Type': type, ETag: etag, 'Cache-Control': 'no-cache', 'Content-Security-Policy': "default-src 'self'; style-src 'self' 'unsafe-inline'" });
    if (req.fresh) return res.status(304).end();
    res.send(body);
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
