// Code samples for the docs page, generated from the bundled document when the page is built:
// every operation gets `x-codeSamples` (Redoc shows them beside it) with a `curl` command and the
// same call with the typed client (`secmon-api`), one pair per named request example, built from
// the example, the path parameters' examples and the security requirement; every webhook gets a
// receiver that verifies and parses the event; the introduction gets an install-and-use section.
// Nothing here is hand-copied, so a change to the document changes the samples, and
// test/document/code-samples.test.ts checks each one against the document and the client's types.
// The samples live only in the docs build: generated/openapi.json (what the server, the mock and
// the packages read) stays free of them.
import type { OpenAPIV3_1 } from 'openapi-types';
import { sampleOrigin } from '../../common/sample-origin.ts';
import {
  listOperations,
  listWebhookOperations,
  type OpenApiDocument,
  type OperationRef,
  resolveRef,
} from '../../packages/api/src/document.ts';
import { receiverSample } from './receiver-sample.ts';
import { API_KEY_VARIABLE, CLIENT_LABEL, CLIENT_PACKAGE, CURL_LABEL, RECEIVER_HEADING } from './sample-names.ts';

export interface CodeSample {
  lang: 'Shell' | 'TypeScript';
  label: string;
  source: string;
}

/** One request an operation documents: a named body example (or none) with example parameters. */
interface RequestExample {
  name: string | undefined;
  summary: string | undefined;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

type Parameter = OpenAPIV3_1.ParameterObject;

/** A copy of the document with `x-codeSamples` on every operation and webhook and the client in the introduction. */
export function withCodeSamples(source: OpenApiDocument): OpenApiDocument {
  const doc = structuredClone(source);
  for (const ref of listOperations(doc)) {
    Object.assign(ref.operation, { 'x-codeSamples': operationSamples(doc, ref) });
  }
  // Redoc shows no code samples beside a webhook (only its payload): the receiver goes in the text.
  for (const ref of listWebhookOperations(doc)) {
    ref.operation.description = `${ref.operation.description ?? ''}\n\n${RECEIVER_HEADING}\n\n\`\`\`ts\n${receiverSample(doc, ref)}\n\`\`\`\n`;
  }
  doc.info.description = withClientIntroduction(doc, doc.info.description ?? '');
  return doc;
}

/** One `curl` and one client sample per operation, each showing every named request example. */
export function operationSamples(doc: OpenApiDocument, ref: OperationRef): CodeSample[] {
  const examples = requestExamples(doc, ref);
  return [
    { lang: 'Shell', label: CURL_LABEL, source: examples.map((example) => curlSample(doc, ref, example)).join('\n\n') },
    { lang: 'TypeScript', label: CLIENT_LABEL, source: clientSample(doc, ref, examples) },
  ];
}

function parametersOf(doc: OpenApiDocument, { path, operation }: OperationRef): Parameter[] {
  const shared = (doc.paths?.[path]?.parameters ?? []) as (Parameter | OpenAPIV3_1.ReferenceObject)[];
  return [...shared, ...(operation.parameters ?? [])].map((parameter) => resolveRef<Parameter>(doc, parameter));
}

function requestExamples(doc: OpenApiDocument, ref: OperationRef): RequestExample[] {
  const values = (where: string, pick: (parameter: Parameter) => boolean) =>
    Object.fromEntries(
      parametersOf(doc, ref)
        .filter((parameter) => parameter.in === where && pick(parameter))
        .map((parameter) => {
          if (parameter.example === undefined)
            throw new Error(`${operationLabel(ref)}: parameter ${parameter.name} has no example to build a sample from`);
          return [parameter.name, parameter.example];
        }),
    );
  const isRead = ref.method === 'get';
  const base = {
    path: values('path', () => true),
    // Reads show the documented filters; writes show the conditional and idempotency headers.
    query: values('query', (parameter) => isRead && parameter.example !== undefined),
    headers: values('header', (parameter) => !isRead && parameter.example !== undefined),
  };
  if (!ref.operation.requestBody) return [{ name: undefined, summary: undefined, body: undefined, ...base }];
  const body = resolveRef<OpenAPIV3_1.RequestBodyObject>(doc, ref.operation.requestBody);
  const examples = Object.entries(body.content['application/json']?.examples ?? {});
  if (examples.length === 0) throw new Error(`${operationLabel(ref)}: the request body has no named example to build a sample from`);
  return examples.map(([name, example]) => {
    const resolved = resolveRef<OpenAPIV3_1.ExampleObject>(doc, example);
    return { name, summary: resolved.summary, body: resolved.value, ...base };
  });
}

const IDEMPOTENCY_KEY = 'Idempotency-Key';

const operationLabel = ({ method, path, operation }: OperationRef) => `${operation.operationId} (${method.toUpperCase()} ${path})`;

/** The scopes the operation's bearer requirement asks for; undefined when it needs no key. */
function scopesOf(doc: OpenApiDocument, { operation }: OperationRef): string[] | undefined {
  const requirement = (operation.security ?? doc.security ?? [])[0];
  return requirement ? Object.values(requirement).flat() : undefined;
}

function urlOf(doc: OpenApiDocument, ref: OperationRef, example: RequestExample): string {
  const path = ref.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(String(example.path[name])));
  const query = new URLSearchParams(
    Object.entries(example.query).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return `${sampleOrigin(doc)}${path}${query ? `?${query}` : ''}`;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function scopeComment(scopes: string[] | undefined, prefix: string): string[] {
  if (!scopes) return [];
  return [`${prefix} An API key with the ${scopes.join(' and ')} scope${scopes.length === 1 ? '' : 's'}, in $${API_KEY_VARIABLE}.`];
}

function curlSample(doc: OpenApiDocument, ref: OperationRef, example: RequestExample): string {
  const scopes = scopesOf(doc, ref);
  const lines = [
    ...(example.name ? [`# Example "${example.name}": ${example.summary ?? ''}`] : []),
    ...scopeComment(scopes, '#'),
    ...('If-Match' in example.headers ? ['# If-Match: the ETag of your last read; 412 if the resource changed since.'] : []),
    ...(IDEMPOTENCY_KEY in example.headers
      ? [`# ${IDEMPOTENCY_KEY}: a new unique value (a UUID) per create; a retry sends the same one.`]
      : []),
  ];
  const parts = [`curl${ref.method === 'get' ? '' : ` -X ${ref.method.toUpperCase()}`} ${shellQuote(urlOf(doc, ref, example))}`];
  if (scopes) parts.push(`-H "Authorization: Bearer $${API_KEY_VARIABLE}"`);
  for (const [name, value] of Object.entries(example.headers)) parts.push(`-H ${shellQuote(`${name}: ${String(value)}`)}`);
  if (example.body !== undefined) {
    parts.push(`-H 'Content-Type: application/json'`);
    parts.push(`-d ${shellQuote(JSON.stringify(example.body, null, 2))}`);
  }
  return [...lines, parts.join(' \\\n  ')].join('\n');
}

/** A TypeScript literal: identifiers unquoted, single-quoted strings, two-space indentation. */
function literal(value: unknown, indent = ''): string {
  if (typeof value === 'string') return `'${JSON.stringify(value).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${literal(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));
  return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)},`).join('\n')}\n${indent}}`;
}

/** `policy` for a response of `#/components/schemas/Policy`; undefined without a JSON body. */
function resultName(doc: OpenApiDocument, { operation }: OperationRef): string | undefined {
  const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
  if (!success) return undefined;
  const response = resolveRef<OpenAPIV3_1.ResponseObject>(doc, success[1]);
  const schema = response.content?.['application/json']?.schema as { $ref?: string } | undefined;
  const name = schema?.$ref?.split('/').pop();
  return name ? name[0]!.toLowerCase() + name.slice(1) : undefined;
}

function clientHeader(doc: OpenApiDocument, scopes: string[] | undefined): string[] {
  return [
    `import { createSecmonClient, unwrap } from '${CLIENT_PACKAGE}';`,
    '',
    ...scopeComment(scopes, '//'),
    `const secmon = createSecmonClient({ baseUrl: '${sampleOrigin(doc)}', apiKey: process.env.${API_KEY_VARIABLE}! });`,
    '',
  ];
}

function clientSample(doc: OpenApiDocument, ref: OperationRef, examples: RequestExample[]): string {
  const method = ref.method.toUpperCase();
  const lines = clientHeader(doc, scopesOf(doc, ref));
  const [first] = examples;
  const readsFirst = 'If-Match' in first!.headers && doc.paths?.[ref.path]?.get !== undefined;
  if (readsFirst) {
    lines.push(
      ...(method === 'PUT'
        ? [
            '// PUT replaces every writable field (one you leave out takes its default): build the body',
            '// from what you read, and send the ETag you read as If-Match so that a change made in the',
            '// meantime is refused with 412 instead of overwritten.',
          ]
        : ['// Send the ETag you read as If-Match, so that a change made in the meantime is refused with 412.']),
      `const read = await secmon.GET('${ref.path}', { params: { path: ${inlineObject(first!.path)} } });`,
      `const etag = read.response.headers.get('ETag')!;`,
      '',
    );
  }
  if (examples.length > 1) lines.push('// One call per documented example: use the one you need.', '');
  const result = resultName(doc, ref);
  for (const example of examples) {
    const headers: Record<string, string> = Object.fromEntries(
      Object.entries(example.headers).map(([name, value]) => [name, literal(value)]),
    );
    if (readsFirst) headers['If-Match'] = 'etag';
    if (IDEMPOTENCY_KEY in headers) headers[IDEMPOTENCY_KEY] = 'crypto.randomUUID()';
    const params = [
      ...(Object.keys(example.path).length > 0 ? [`path: ${inlineObject(example.path)}`] : []),
      ...(Object.keys(example.query).length > 0 ? [`query: ${inlineObject(example.query)}`] : []),
      ...(Object.keys(headers).length > 0
        ? [
            `header: { ${Object.entries(headers)
              .map(([name, value]) => `${literal(name)}: ${value}`)
              .join(', ')} }`,
          ]
        : []),
    ];
    const options = [
      ...(params.length > 0 ? [`params: { ${params.join(', ')} }`] : []),
      ...(example.body === undefined ? [] : [`body: ${literal(example.body, '    ')}`]),
    ];
    const call = `secmon.${method}('${ref.path}'${options.length > 0 ? `, {\n    ${options.join(',\n    ')},\n  }` : ''})`;
    const name = result && (examples.length > 1 ? `${result}${identifier(example.name!)}` : result);
    if (example.name) lines.push(`// Example "${example.name}": ${example.summary ?? ''}`);
    lines.push(`${name ? `const ${name} = ` : ''}unwrap(\n  await ${call},\n);`);
    if (name) lines.push(`console.log(${name});`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

/** `keepSecret` → `KeepSecret`, for a variable name per example. */
const identifier = (name: string) =>
  name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_match, _separator, letter: string) => letter.toUpperCase());

const inlineObject = (value: Record<string, unknown>) =>
  `{ ${Object.entries(value)
    .map(([name, item]) => `${name}: ${literal(item)}`)
    .join(', ')} }`;

/** The introduction's section on the client: install it, then the first create of the document. */
export function clientIntroduction(doc: OpenApiDocument): string {
  const create = listOperations(doc).find((ref) => ref.method === 'post' && ref.operation.requestBody)!;
  const [example] = requestExamples(doc, create).sort((a, b) => JSON.stringify(a.body).length - JSON.stringify(b.body).length);
  return [
    '## Client library',
    `The \`${CLIENT_PACKAGE}\` package is a typed client generated from this document: paths,`,
    'parameters and bodies are checked by the TypeScript compiler, errors arrive as typed problem',
    'documents, and a `429` is retried after its `Retry-After`. It also verifies and parses webhook',
    'events. Every operation below shows its `curl` command and the same call with the client.',
    '',
    '```sh',
    `npm install ${CLIENT_PACKAGE}`,
    '```',
    '',
    `Until \`${CLIENT_PACKAGE}\` is on your registry, install its tarball: \`npm run pack\` in the API's repository`,
    `writes \`dist/packages/${CLIENT_PACKAGE}-${doc.info.version}.tgz\`; in your project,`,
    `\`npm install /path/to/${CLIENT_PACKAGE}-${doc.info.version}.tgz\`.`,
    '',
    '```ts',
    clientSample(doc, create, [{ ...example!, name: undefined }]),
    '```',
  ].join('\n');
}

/** Inserts the client section before the introduction's first `##` section. */
function withClientIntroduction(doc: OpenApiDocument, description: string): string {
  const at = description.indexOf('\n## ');
  const section = `\n${clientIntroduction(doc)}\n`;
  return at < 0 ? `${description}\n${section}` : `${description.slice(0, at + 1)}${section}${description.slice(at)}`;
}
