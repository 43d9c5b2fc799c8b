// The docs' code samples (scripts/docs/code-samples.ts) checked against the document they come
// from: every operation has a curl and a client sample; each curl command, read back from its
// text, names a documented method and path, and its path, query, headers and body validate against
// the operation's schemas; every TypeScript sample (client calls, webhook receivers, the
// introduction) compiles against the client package with strict settings.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findRoute,
  listOperations,
  listWebhookOperations,
  loadDocument,
  type OperationRef,
  operationRoutes,
  resolveRef,
} from '../../packages/api/src/document.ts';
import { createSchemaValidator } from '../../packages/api/src/schema-validator.ts';
import { type CodeSample, withCodeSamples } from '../../scripts/docs/code-samples.ts';
import { API_KEY_VARIABLE, CLIENT_LABEL, CLIENT_PACKAGE, CURL_LABEL, RECEIVER_HEADING } from '../../scripts/docs/sample-names.ts';
import { root } from '../../scripts/pipeline.ts';

const source = loadDocument();
const doc = withCodeSamples(source);
const validator = createSchemaValidator(source);
const operations = listOperations(doc);
const samplesOf = (ref: OperationRef) => (ref.operation as { 'x-codeSamples'?: CodeSample[] })['x-codeSamples'] ?? [];

interface CurlRequest {
  method: string;
  url: URL;
  headers: Map<string, string>;
  body: string | undefined;
}

/** Reads curl commands back from a sample's text: comments, `\` continuations, single and double quotes. */
function parseCurl(text: string): CurlRequest[] {
  const commands = text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split(/\n(?=curl )/);
  return commands.map((command) => {
    const words: string[] = [];
    for (const match of command.trim().matchAll(/'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g)) {
      words.push(
        match[1] !== undefined ? match[1].replaceAll(`'\\''`, "'") : (match[2] ?? match[3])!.replace(`$${API_KEY_VARIABLE}`, '<key>'),
      );
    }
    expect(words.shift()).toBe('curl');
    const request: CurlRequest = { method: 'GET', url: new URL('http://unset'), headers: new Map(), body: undefined };
    while (words.length > 0) {
      const word = words.shift()!;
      if (word === '-X') request.method = words.shift()!;
      else if (word === '-H') {
        const header = words.shift()!;
        request.headers.set(header.slice(0, header.indexOf(':')).toLowerCase(), header.slice(header.indexOf(':') + 1).trim());
      } else if (word === '-d') request.body = words.shift()!;
      else request.url = new URL(word);
    }
    return request;
  });
}

/** The operation's parameters (its path's too), each with the JSON pointer of its schema. */
function parametersOf(ref: OperationRef): { parameter: OpenAPIV3_1.ParameterObject; pointer: string }[] {
  const at = (holder: string, list: unknown[] | undefined) =>
    (list ?? []).map((raw, index) => ({
      parameter: resolveRef<OpenAPIV3_1.ParameterObject>(doc, raw as OpenAPIV3_1.ParameterObject),
      pointer: `${(raw as { $ref?: string }).$ref ?? `${holder}/parameters/${index}`}/schema`,
    }));
  const pathPointer = `#/paths/${ref.path.replaceAll('/', '~1')}`;
  return [...at(pathPointer, doc.paths?.[ref.path]?.parameters), ...at(`${pathPointer}/${ref.method}`, ref.operation.parameters)];
}

/** A query value as the typed value its schema describes (query strings are text). */
function typed(pointer: string, text: string): unknown {
  const schema = resolveRef<{ type?: string }>(doc, { $ref: pointer });
  const type = resolveRef<{ type?: string }>(doc, schema).type;
  if (type === 'integer' || type === 'number') return Number(text);
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function expectValid(pointer: string, value: unknown, what: string): void {
  const result = validator.validate(pointer, value);
  expect(result.valid, `${what}: ${result.valid ? '' : result.message}`).toBe(true);
}

const routes = operationRoutes(doc);

describe('code samples in the docs', () => {
  it('leave the committed bundle untouched', () => {
    expect(JSON.stringify(source)).not.toContain('x-codeSamples');
    expect(JSON.stringify(loadDocument())).toBe(JSON.stringify(source));
  });

  for (const ref of operations) {
    const label = `${ref.operation.operationId} (${ref.method.toUpperCase()} ${ref.path})`;
    describe(label, () => {
      const samples = samplesOf(ref);

      it(`has one ${CURL_LABEL} and one ${CLIENT_LABEL} sample`, () => {
        expect(samples.map((sample) => sample.label)).toEqual([CURL_LABEL, CLIENT_LABEL]);
      });

      it('its curl commands validate against the operation: method, path, query, headers and body', () => {
        const requests = parseCurl(samples.find((sample) => sample.label === CURL_LABEL)!.source);
        const body = ref.operation.requestBody && resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, ref.operation.requestBody);
        const bodyExamples = Object.keys(body?.content['application/json']?.examples ?? {});
        expect(requests).toHaveLength(Math.max(1, bodyExamples.length));
        const opPointer = `#/paths/${ref.path.replaceAll('/', '~1')}/${ref.method}`;
        for (const request of requests) {
          expect(request.method).toBe(ref.method.toUpperCase());
          expect(request.url.origin).toBe(new URL(doc.servers![0]!.url).origin);
          const route = findRoute(routes, request.url.pathname);
          expect(route?.path, request.url.pathname).toBe(ref.path);
          expect(route!.methods.has(request.method)).toBe(true);

          const parameters = parametersOf(ref);
          const find = (where: string, name: string) =>
            parameters.find(({ parameter }) => parameter.in === where && parameter.name.toLowerCase() === name.toLowerCase());
          const segments = request.url.pathname.split('/');
          ref.path.split('/').forEach((segment, index) => {
            const name = /^\{(.+)\}$/.exec(segment)?.[1];
            if (name) expectValid(find('path', name)!.pointer, decodeURIComponent(segments[index]!), `path ${name}`);
          });
          for (const [name, value] of request.url.searchParams) {
            const query = find('query', name);
            expect(query, `query parameter ${name} is documented`).toBeDefined();
            expectValid(query!.pointer, typed(query!.pointer, value), `query ${name}=${value}`);
          }

          const security = ref.operation.security ?? doc.security ?? [];
          if (security.length > 0) expect(request.headers.get('authorization')).toBe('Bearer <key>');
          for (const [name, value] of request.headers) {
            if (name === 'authorization' || name === 'content-type') continue;
            const header = find('header', name);
            expect(header, `header ${name} is documented`).toBeDefined();
            expectValid(header!.pointer, value, `header ${name}: ${value}`);
          }
          for (const { parameter } of parameters.filter(({ parameter }) => parameter.required && parameter.in === 'header')) {
            expect(request.headers.has(parameter.name.toLowerCase()), `required header ${parameter.name}`).toBe(true);
          }

          if (body) {
            expect(request.headers.get('content-type')).toBe('application/json');
            expect(request.body, 'a body').toBeDefined();
            expectValid(`${opPointer}/requestBody/content/application~1json/schema`, JSON.parse(request.body!), `${label} body`);
          } else {
            expect(request.body).toBeUndefined();
          }
        }
      });
    });
  }

  it('every webhook shows a receiver that verifies and parses it', () => {
    for (const { path: type, operation } of listWebhookOperations(doc)) {
      expect(operation.description, type).toContain(RECEIVER_HEADING);
      expect(operation.description).toContain(`verifyWebhook(req.body, req.headers, secret)`);
      expect(operation.description).toContain(`event.event === '${type}'`);
    }
  });

  it('the introduction shows installing and using the client', () => {
    expect(doc.info.description).toContain(`npm install ${CLIENT_PACKAGE}`);
    expect(doc.info.description).toContain(`\`npm install /path/to/${CLIENT_PACKAGE}-${doc.info.version}.tgz\``);
    expect(doc.info.description).toContain(`import { createSecmonClient, unwrap } from '${CLIENT_PACKAGE}';`);
    expect(doc.info.description!.indexOf('## Client library')).toBeLessThan(doc.info.description!.indexOf('## Authentication'));
  });
});

describe('the TypeScript samples compile against the client (tsc, strict)', () => {
  // Inside node_modules so that express, @types/node and the root package.json ("type": "module") resolve.
  const dir = mkdtempSync(join(root, 'node_modules', '.code-samples-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fence = /```ts\n([\s\S]*?)```/g;
  const sources: [string, string][] = [
    ...operations.map((ref): [string, string] => [
      ref.operation.operationId!,
      samplesOf(ref).find((sample) => sample.label === CLIENT_LABEL)!.source,
    ]),
    ...listWebhookOperations(doc).map((ref): [string, string] => [
      ref.operation.operationId!,
      [...ref.operation.description!.matchAll(fence)][0]![1]!,
    ]),
    ['introduction', [...doc.info.description!.matchAll(fence)][0]![1]!],
  ];
  // One deliberate mistake, so the check is seen to bite: a path the document does not have.
  sources.push(['mistake', sources[0]![1].replace("secmon.GET('/v1/policies'", "secmon.GET('/v1/policy'")]);

  function compile() {
    for (const [name, text] of sources) writeFileSync(join(dir, `${name}.ts`), text);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          resolveJsonModule: true,
          types: ['node'],
          paths: {
            [CLIENT_PACKAGE]: [join(root, 'packages/api/src/index.ts')],
            [`${CLIENT_PACKAGE}/webhooks`]: [join(root, 'packages/api/src/webhooks.ts')],
          },
        },
        include: ['*.ts'],
      }),
    );
    const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--pretty', 'false', '-p', dir], {
      cwd: dir,
      encoding: 'utf8',
    });
    return `${result.stdout}${result.stderr}`;
  }
  const output = compile();
  const errorsIn = (name: string) => output.split('\n').filter((line) => line.startsWith(`${name}.ts(`));

  it('the mistake is reported (tsc really checks the samples)', () => {
    expect(sources[0]![1]).toContain("secmon.GET('/v1/policies'");
    expect(errorsIn('mistake').length).toBeGreaterThan(0);
  });
  for (const [name] of sources.filter(([name]) => name !== 'mistake')) {
    it(`${name} compiles`, () => expect(errorsIn(name)).toEqual([]));
  }
});
