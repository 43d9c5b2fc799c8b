// Proofs by family: a rule broken in one cell of its axis at a time, for every cell the document
// gives — the cross-cutting rules on each class of answer the error-answers check provokes, a
// length limit on each length-limited field, a changed ETag on each resource, a reused
// Idempotency-Key with a body changed below its top level on each create — so a rule is shown
// judged everywhere it governs, not only where a hand-picked fault broke it.
import { loadDocument } from 'secmon-api/src/document';
import { CREDENTIAL_SPELLINGS, SPELLINGS_AXIS } from '../../src/kit/axes/answers.ts';
import { boundaryCells, sendersOf } from '../../src/kit/axes/boundaries.ts';
import { flatten, type Schema } from '../../src/kit/axes/schema-fields.ts';
import { DEFAULT_CORS_ORIGIN } from '../../src/kit/checks/shared/cross-cutting.ts';
import { buildModel, type OperationModel } from '../../src/kit/spec.ts';
import { etagKept, header, lengthInBytes, requestHeader, shallowIdempotency } from '../fault-dsl.ts';
import type { RuleFamily } from '../prove.ts';
import { WRITER_KEY } from '../reference-target.ts';

const model = buildModel(loadDocument());
const pathOf = (op: OperationModel) => new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/?]+')}$`);

/** Whether a request body's schema has members below its top level (an object or array member, or one of them allowed). */
function hasNested(op: OperationModel): boolean {
  if (!op.body) return false;
  const nested = (schema: Schema): boolean =>
    schema.type === 'object' ||
    schema.type === 'array' ||
    ((schema.oneOf ?? schema.anyOf) as unknown[] | undefined)?.some((option) => nested(flatten(model.doc, option))) === true;
  const properties = (flatten(model.doc, { $ref: op.body.pointer }).properties ?? {}) as Record<string, unknown>;
  return Object.values(properties).some((property) => nested(flatten(model.doc, property)));
}

/**
 * Each maxLength of a body member or of one of its own members that the boundary check fills with
 * astral characters, with the operation it is sent on (a create before an update) and its pointer
 * below the body.
 */
function lengthLimits(): { op: OperationModel; pointer: string; max: number }[] {
  const senders = sendersOf(model);
  return boundaryCells(model).fields.flatMap((cell) => {
    const max = / maxLength (\d+)$/.exec(cell.axis)?.[1];
    const op = senders.get(cell.schemaName);
    const pointer = cell.pointers[0]!.slice('/body'.length);
    return max && op && cell.inside && !cell.valueFor ? [{ op, pointer, max: Number(max) }] : [];
  });
}

const LIST_POLICIES = 'listPolicies (GET /v1/policies)';
/** The statuses error-answers provokes on the reference server, each a cell of the answer-class axis. */
const ANSWERS = [200, 201, 204, 304, 400, 401, 403, 404, 409, 412, 413, 415];
const AXIS = 'the classes of answer';
const options = { corsOrigin: DEFAULT_CORS_ORIGIN };

/** Each spelling of the key, read by the implementation as its opposite: a served one as an unknown key, a refused one as the key. */
const misread = (accepted: boolean) =>
  CREDENTIAL_SPELLINGS.filter((spelling) => spelling.accepted === accepted).map(({ name, spell }) => ({
    cell: name,
    fault: requestHeader('authorization', (value) =>
      value === spell(WRITER_KEY) ? (accepted ? 'Bearer contract-kit-unknown-key-0000' : `Bearer ${WRITER_KEY}`) : value,
    ),
  }));

const along = (statuses: number[], fault: (status: number) => RuleFamily['members'][number]['fault']) =>
  statuses.map((status) => ({ cell: String(status), fault: fault(status) }));

export const FAMILIES: readonly RuleFamily[] = [
  { rule: 'security.bearerAuth.1', check: 'credential-spellings', subject: LIST_POLICIES, axis: SPELLINGS_AXIS, members: misread(true) },
  { rule: 'authentication.3', check: 'credential-spellings', subject: LIST_POLICIES, axis: SPELLINGS_AXIS, members: misread(false) },
  {
    rule: 'browser-clients-cors.1',
    check: 'error-answers',
    subject: LIST_POLICIES,
    axis: AXIS,
    members: along(ANSWERS, (status) => header({ status }, 'access-control-allow-origin', () => undefined)),
    options,
  },
  {
    rule: 'browser-clients-cors.3',
    check: 'error-answers',
    subject: LIST_POLICIES,
    axis: AXIS,
    members: along(ANSWERS, (status) => header({ status }, 'access-control-expose-headers', () => undefined)),
    options,
  },
  {
    rule: 'rate-limits.2',
    check: 'error-answers',
    subject: LIST_POLICIES,
    axis: `${AXIS} to a valid key`,
    members: along(
      ANSWERS.filter((status) => status !== 401),
      (status) => header({ status }, 'ratelimit', () => undefined),
    ),
    options,
  },
  {
    rule: 'errors.1',
    check: 'error-answers',
    subject: LIST_POLICIES,
    axis: 'the classes of error answer',
    members: along(
      ANSWERS.filter((status) => status >= 400),
      (status) => header({ status }, 'content-type', () => 'application/json'),
    ),
    options,
  },
  {
    rule: 'limits.2',
    check: 'boundary-inputs',
    subject: 'createPolicy (POST /v1/policies)',
    axis: 'the length-limited fields',
    members: lengthLimits().map(({ op, pointer, max }) => ({
      cell: `${op.label.split(' ')[0]} ${pointer.slice(1)} (${max})`,
      subject: op.label,
      fault: lengthInBytes({ method: op.method.toUpperCase(), path: pathOf(op) }, pointer, max),
    })),
  },
  {
    rule: 'header.ETag.2',
    check: 'state-reads',
    subject: 'getFinding (GET /v1/findings/{id})',
    axis: 'the resources and their changes of state',
    members: model.resources.flatMap((resource) =>
      resource.read ? [{ cell: resource.name, fault: etagKept(resource.collectionPath) }] : [],
    ),
  },
  {
    rule: 'response.IdempotencyConflict.1',
    check: 'idempotency',
    subject: 'createPolicy (POST /v1/policies)',
    axis: 'the creates, with a body that differs only below its top level',
    members: model.resources.flatMap((resource) =>
      resource.create && hasNested(resource.create)
        ? [{ cell: resource.name, subject: resource.create.label, fault: shallowIdempotency }]
        : [],
    ),
  },
];
