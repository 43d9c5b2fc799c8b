// `npm run check:breaking`: bundles the `openapi/` sources as they are now (into a temporary
// file, so an edit is judged without `npm run bundle`) and compares the bundle with the newest
// released document under openapi/releases/. Exits 1 and lists the changes when any would break
// a client or a webhook receiver, 2 on a usage error or sources that do not bundle.
//
//   --source <dir>     the sources to bundle (default openapi/; its releases/ gives the default base)
//   --revision <file>  compare this bundle (JSON or YAML) instead of bundling the sources
//   --base <file>      the released document to compare against
//   --format <f>       text (default), json (for tools) or markdown (a changelog with the additions)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { OpenApiDocument } from '../../lib/document.ts';
import { bundleTo, root } from '../pipeline.ts';
import { type ChangeReport, compareReleases } from './compare.ts';
import { newestRelease } from './releases.ts';
import { FORMATS, type Format, formatJson, formatMarkdown, formatText, type ReportContext } from './report.ts';

export const defaultSource = join(root, 'openapi');

export { newestRelease };

export const readDocument = (path: string) => parseYaml(readFileSync(path, 'utf8')) as OpenApiDocument;

/** The sources in `source` bundled as they are now, through the same pipeline as `npm run bundle`. */
export function bundleSources(source: string): OpenApiDocument {
  const dir = mkdtempSync(join(tmpdir(), 'check-breaking-'));
  try {
    const file = join(dir, 'openapi.json');
    bundleTo(file, join(source, 'openapi.yaml'));
    return readDocument(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CheckOptions {
  source?: string;
  revision?: string;
  base?: string;
}

export function check(options: CheckOptions): { report: ChangeReport; context: ReportContext } {
  const source = options.source ?? defaultSource;
  if (!existsSync(source)) throw new Error(`--source ${source}: no such folder (it should hold openapi.yaml and releases/)`);
  const basePath = options.base ?? newestRelease(join(source, 'releases'));
  const name = (path: string) => relative(process.cwd(), path) || '.';
  const revision = options.revision ? readDocument(options.revision) : bundleSources(source);
  return {
    report: compareReleases(readDocument(basePath), revision),
    context: { base: name(basePath), revision: options.revision ? name(options.revision) : `${name(source)}/ (bundled now)` },
  };
}

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      source: { type: 'string' },
      revision: { type: 'string' },
      base: { type: 'string' },
      format: { type: 'string', default: 'text' },
    },
  });
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new Error(`--format must be one of ${FORMATS.join(', ')}`);
  const { report, context } = check(values);
  const breaking = report.breaking.length;
  if (format === 'json') console.log(formatJson(report, context));
  else if (format === 'markdown') console.log(formatMarkdown(report, context));
  else if (breaking === 0) console.log(`check:breaking: no breaking change in ${context.revision} against ${context.base}`);
  else {
    console.error(`check:breaking: ${breaking} breaking change(s) in ${context.revision} against ${context.base}:\n`);
    console.error(formatText(report.breaking));
    console.error("\nA breaking change needs a new major version (/v2); see the document's Versioning section.");
  }
  return breaking === 0 ? 0 : 1;
}

if (import.meta.main) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`check:breaking: ${(error as Error).message}`);
    process.exitCode = 2;
  }
}
