// `npm run check:breaking`: bundles the `openapi/` sources as they are now (into a temporary
// file, so an edit is judged without `npm run bundle`) and compares the bundle with the newest
// released document under openapi/releases/. Each change is classified for clients (compatible or
// breaking) and for implementations (a new obligation, a removed one, rewording); the version step
// they need is named. Exits 1 when a change would break a client or a webhook receiver, when the
// contract changed but info.version did not take the step it needs, when a new version has no
// entry in openapi/CHANGELOG.md, or when a released bundle was edited; 2 on a usage error or
// sources that do not bundle.
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
import type { OpenApiDocument } from '../../packages/api/src/document.ts';
import { bundleTo, root } from '../pipeline.ts';
import { compareReleases } from './compare.ts';
import { implementationChanges } from './obligations.ts';
import { newestRelease, releaseProblems } from './releases.ts';
import { type CheckResult, FORMATS, type Format, formatJson, formatMarkdown, formatSummary } from './report.ts';
import { versionVerdict } from './versioning.ts';

export const defaultSource = join(root, 'openapi');

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

export function check(options: CheckOptions): CheckResult {
  const source = options.source ?? defaultSource;
  if (!existsSync(source)) throw new Error(`--source ${source}: no such folder (it should hold openapi.yaml and releases/)`);
  const releases = join(source, 'releases');
  const basePath = options.base ?? newestRelease(releases);
  const name = (path: string) => relative(process.cwd(), path) || '.';
  const [base, revision] = [readDocument(basePath), options.revision ? readDocument(options.revision) : bundleSources(source)];
  const report = compareReleases(base, revision);
  const implementations = implementationChanges(base, revision, report);
  const changelogFile = join(source, 'CHANGELOG.md');
  const changelog = existsSync(changelogFile) ? readFileSync(changelogFile, 'utf8') : undefined;
  const version = versionVerdict({ base, revision, report, implementations, changelog });
  if (!options.base) version.problems.unshift(...releaseProblems(releases));
  return {
    report,
    implementations,
    version,
    context: { base: name(basePath), revision: options.revision ? name(options.revision) : `${name(source)}/ (bundled now)` },
  };
}

/** Where the command line prints: a line per call. */
export interface GatePrinter {
  out(line: string): void;
  err(line: string): void;
}

/** The command line (`npm run check:breaking -- <argv>`): prints to `print`, returns the exit code. */
export function runGate(argv: string[], print: GatePrinter = { out: console.log, err: console.error }): number {
  try {
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
    const result = check(values);
    const failed = result.report.breaking.length > 0 || result.version.problems.length > 0;
    if (format === 'json') print.out(formatJson(result));
    else if (format === 'markdown') print.out(formatMarkdown(result));
    else (failed ? print.err : print.out)(formatSummary(result));
    return failed ? 1 : 0;
  } catch (error) {
    print.err(`check:breaking: ${(error as Error).message}`);
    return 2;
  }
}

if (import.meta.main) process.exitCode = runGate(process.argv.slice(2));
