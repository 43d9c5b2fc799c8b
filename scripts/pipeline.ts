// The document pipeline: openapi/ → bundle (YAML + JSON) → types → docs. `npm run bundle`,
// `npm run generate` and `npm run docs` call it, and the drift test runs the same steps into a
// temporary folder, so there is exactly one definition of how generated files are made.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';
import { INLINE_FAVICON_LINK } from '../common/favicon.ts';
import { listOperations, type OpenApiDocument, resolveRef } from '../packages/api/src/document.ts';
import { withChangelog } from './docs/changelog.ts';
import { withCodeSamples } from './docs/code-samples.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));
const sourceDocument = join(root, 'openapi/openapi.yaml');
const bin = (relative: string) => join(root, 'node_modules', relative);
const REDOCLY = bin('@redocly/cli/bin/cli.js');
/**
 * Generators that need TypeScript's JavaScript compiler API, which TypeScript 7 no longer has: they
 * live in tools/generators/ with their own lockfile and the TypeScript they run on (5.9), installed
 * by the root `postinstall`, while the repository type-checks with TypeScript 7.
 */
export const generatorBin = (relative: string) => join(root, 'tools/generators/node_modules', relative);
const OPENAPI_TS = generatorBin('openapi-typescript/bin/cli.js');

/** Runs a tool's CLI with this Node; returns what it printed (stdout and stderr), throws on failure. */
function run(script: string, args: string[]): string {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${script.split('node_modules/')[1]} ${args[0]} failed:\n${output}`);
  return output;
}

export interface GeneratedPaths {
  yaml: string;
  json: string;
  types: string;
  answers: string;
}

export const generatedIn = (dir: string): GeneratedPaths => ({
  yaml: join(dir, 'openapi.yaml'),
  json: join(dir, 'openapi.json'),
  types: join(dir, 'schema.d.ts'),
  answers: join(dir, 'answers.ts'),
});

export function lint(): string {
  return run(REDOCLY, ['lint', sourceDocument, '--format=stylish']);
}

export function bundle(out: GeneratedPaths): void {
  mkdirSync(dirname(out.yaml), { recursive: true });
  bundleTo(out.yaml);
  bundleTo(out.json);
}

/** Bundles one source document into one file (YAML or JSON, by the file's extension). */
export function bundleTo(file: string, source = sourceDocument): void {
  run(REDOCLY, ['bundle', source, '-o', file]);
}

export function generateTypes(out: GeneratedPaths): void {
  // Without --default-non-nullable=false, fields that merely have a default (enabled, frameworks)
  // would become required in request types.
  run(OPENAPI_TS, [out.yaml, '-o', out.types, '--default-non-nullable=false']);
}

/**
 * The documented answers as a literal TypeScript table (operation id → method, path, and per
 * status the names of its examples), so the MSW handlers' scenarios are checked by the compiler:
 * openapi-typescript's types carry neither operation paths by id nor example names.
 */
export function generateAnswers(out: GeneratedPaths): void {
  const doc = JSON.parse(readFileSync(out.json, 'utf8')) as OpenApiDocument;
  const table = Object.fromEntries(
    listOperations(doc).map(({ path, method, operation }) => [
      operation.operationId!,
      {
        method,
        path,
        responses: Object.fromEntries(
          Object.entries(operation.responses ?? {}).map(([status, response]) => [
            status,
            Object.values(resolveRef<OpenAPIV3_1.ResponseObject>(doc, response).content ?? {}).flatMap((media) =>
              Object.keys(media.examples ?? {}),
            ),
          ]),
        ),
      },
    ]),
  );
  const header = '// Generated from openapi.json by scripts/pipeline.ts (npm run generate); do not edit.\n';
  writeFileSync(out.answers, `${header}export const OPERATIONS = ${JSON.stringify(table, null, 2)} as const;\n`);
}

/**
 * Renders the docs page from a bundled JSON document, with code samples (scripts/docs/code-samples.ts)
 * and the contract's changelog (scripts/docs/changelog.ts) added for the page only; the page ends with a stamp of everything it was made from.
 */
export function buildDocs(bundledJson: string, outFile: string): void {
  mkdirSync(dirname(outFile), { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'secmon-docs-build-'));
  try {
    const enriched = join(scratch, 'openapi.json');
    writeFileSync(enriched, JSON.stringify(withChangelog(withCodeSamples(JSON.parse(readFileSync(bundledJson, 'utf8'))))));
    // --inlineBundle embeds Redoc's script: the page loads nothing from a CDN and works offline.
    run(REDOCLY, ['build-docs', enriched, '--inlineBundle', '-o', outFile]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  // Redoc 3's sidebar attribution is an <img> from its CDN, with no option to turn it off; point
  // it at an inline picture so opening the docs contacts no one (test/browser checks this).
  const html = readFileSync(outFile, 'utf8').replaceAll(REDOC_CDN_LOGO, REDOCLY_LOGO_INLINE);
  writeFileSync(outFile, html.replace('<head>', `<head>\n  ${INLINE_FAVICON_LINK}`) + docsStamp(bundledJson));
}

// What a built page depends on besides Redocly itself: the document, the configuration and the
// code that renders it. A page whose stamp matches needs no rebuild.
const DOCS_INPUTS = [
  'redocly.yaml',
  'openapi/CHANGELOG.md',
  'scripts/pipeline.ts',
  'scripts/docs/code-samples.ts',
  'scripts/docs/changelog.ts',
  'common/sample-origin.ts',
  'common/favicon.ts',
  'node_modules/@redocly/cli/package.json',
];

function docsStamp(bundledJson: string): string {
  const hash = createHash('sha256');
  for (const file of [bundledJson, ...DOCS_INPUTS.map((input) => join(root, input))]) hash.update(readFileSync(file));
  return `\n<!-- secmon-docs-source: ${hash.digest('hex')} -->\n`;
}

/** True when `outFile` was built from this bundle with the current configuration and code. */
export function docsUpToDate(bundledJson: string, outFile: string): boolean {
  if (!existsSync(outFile)) return false;
  return readFileSync(outFile, 'utf8').endsWith(docsStamp(bundledJson));
}

/** Why `npm start` has to (re)build the page first, or undefined when it is up to date. */
export function docsBuildReason(bundledJson: string, outFile: string): string | undefined {
  const name = relative(root, outFile);
  if (!existsSync(outFile)) return `${name} is not built yet; building it (a few seconds, once)`;
  if (!docsUpToDate(bundledJson, outFile)) return `${name} is older than the document or how it is rendered; building it (a few seconds)`;
  return undefined;
}

const REDOC_CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const REDOCLY_LOGO_INLINE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#555">Redocly</text></svg>',
)}`;

export const committed = generatedIn(join(root, 'generated'));
const docsFile = join(root, 'dist/docs.html');

if (import.meta.main) {
  const step = process.argv[2];
  const steps: Record<string, () => void> = {
    bundle: () => bundle(committed),
    generate: () => {
      bundle(committed);
      generateTypes(committed);
      generateAnswers(committed);
    },
    docs: () => {
      bundle(committed);
      buildDocs(committed.json, docsFile);
    },
    // `npm start`: rebuild the page only when the committed bundle (or how it is rendered) changed.
    'docs-if-stale': () => {
      const reason = docsBuildReason(committed.json, docsFile);
      if (reason === undefined) return;
      console.log(`docs: ${reason}`);
      buildDocs(committed.json, docsFile);
    },
  };
  const action = step ? steps[step] : undefined;
  if (!action) {
    console.error(`usage: node scripts/pipeline.ts ${Object.keys(steps).join('|')}`);
    process.exit(2);
  }
  action();
  if (step !== 'docs-if-stale') console.log(`${step}: done`);
}
