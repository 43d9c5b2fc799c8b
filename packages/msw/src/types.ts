// The compile-time side of the handlers: operation ids, documented statuses and example names come
// from the generated answer table (generated/answers.ts), and an override's parameters, body and
// answer from openapi-typescript's `operations`, so a scenario the document does not have, or an
// override answering a shape it does not document, fails `tsc`.
import type { OPERATIONS } from '../../../generated/answers.ts';
import type { operations } from '../../../generated/schema.d.ts';

export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Responses<Op extends OperationId> = (typeof OPERATIONS)[Op]['responses'];

/** The statuses an operation documents, as numbers (`200`, `404`). */
export type DocumentedStatus<Op extends OperationId> = keyof Responses<Op> extends infer S
  ? S extends `${infer N extends number}`
    ? N
    : never
  : never;

/** The names of the examples one status of an operation documents. */
export type ExampleName<Op extends OperationId, S extends number = DocumentedStatus<Op>> =
  S extends DocumentedStatus<Op> ? (Responses<Op>[`${S}` & keyof Responses<Op>] extends readonly (infer Name)[] ? Name : never) : never;

/**
 * A documented answer to give instead of the usual one: a status (its first example unless
 * `example` names another of that status), or an example by name alone. The same choices as
 * `Prefer: code=404, example=notFound`. `headers` replace the documented ones of the same name,
 * say `{ 'Retry-After': '30' }` where the handlers send `0`.
 */
export type Scenario<Op extends OperationId> = (
  | { [S in DocumentedStatus<Op>]: { code: S; example?: ExampleName<Op, S> } }[DocumentedStatus<Op>]
  | { code?: undefined; example: ExampleName<Op> }
) & { headers?: Record<string, string> };

type Parameters<Op extends OperationId> = operations[Op]['parameters'];

type BodyOf<Content> = Content extends { 'application/json': infer Json }
  ? Json
  : Content extends { 'application/problem+json': infer Problem }
    ? Problem
    : undefined;

type ResponseOf<Op extends OperationId> = operations[Op]['responses'];

/** One documented answer of an operation: its status and the body the document gives that status. */
export type OverrideAnswer<Op extends OperationId> = {
  [S in keyof ResponseOf<Op>]: ResponseOf<Op>[S] extends { content: infer Content }
    ? { status: S; body: BodyOf<Content>; headers?: Record<string, string> }
    : { status: S; body?: undefined; headers?: Record<string, string> };
}[keyof ResponseOf<Op>];

export interface OverrideRequest<Op extends OperationId> {
  request: Request;
  params: Parameters<Op> extends { path: infer Path } ? Path : Record<string, never>;
  query: Parameters<Op> extends { query?: infer Query } ? NonNullable<Query> : Record<string, never>;
  body: operations[Op]['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : undefined;
}

/** What a test or story answers for one operation, from the request the document has validated. */
export type OverrideResolver<Op extends OperationId> = (request: OverrideRequest<Op>) => OverrideAnswer<Op> | Promise<OverrideAnswer<Op>>;
