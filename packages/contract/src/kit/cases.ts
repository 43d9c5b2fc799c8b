// The generated cases a check sends: valid bodies (marked as the kit's, referencing resources that
// exist, URLs that reach the kit's receiver), invalid ones (one mutation each, spread over the kinds
// of mistake) and valid queries, all seeded so a run repeats.
import fc from 'fast-check';
import type { OpenApiDocument } from 'secmon-api/src/document';
import type { SchemaValidator } from 'secmon-api/src/schema-validator';
import { applyMutation, createGenerator, samples } from './generate.ts';
import { orderSeenTimes, SERVER_ISSUED_PARAMS } from './semantics.ts';
import { type ContractModel, type OperationModel, type ResourceModel, schemaAt } from './spec.ts';

/** Every name, title and description the kit writes starts with this, so leftovers can be found. */
export const KIT_PREFIX = 'kit-';

/** The body with every top-level name, title and description marked as the kit's, same length. */
function prefixed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const marked: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of ['name', 'title', 'description']) {
    const text = marked[field];
    if (typeof text === 'string') marked[field] = (KIT_PREFIX + text).slice(0, Math.max(text.length, KIT_PREFIX.length));
  }
  return marked;
}

export interface CaseSources {
  doc: OpenApiDocument;
  model: ContractModel;
  validator: SchemaValidator;
  /** Read when cases are drawn: the seed stays, the number of cases follows the budget. */
  settings: { seed: number };
  stateful: boolean;
  /** An existing resource's id, for references in generated bodies (stateful profile). */
  fixture(resource: ResourceModel): Promise<string>;
  /** Where generated webhook URLs point. */
  sinkUrl(): Promise<string>;
}

export function createCases({ doc, model, validator, settings, stateful, fixture, sinkUrl }: CaseSources) {
  /** Overrides for generated values: ids of other resources must exist, URLs must reach our receiver. */
  async function generatorFor(op: OperationModel) {
    const overrides: Record<string, fc.Arbitrary<unknown>> = {};
    if (stateful) {
      for (const other of model.resources) {
        if (!other.idRef || !mentions(op, other.idRef)) continue;
        overrides[other.idRef] = fc.constant(await fixture(other));
      }
    }
    const sink = `${await sinkUrl()}/sink`;
    return createGenerator(doc, { overrides, urlArbitrary: fc.nat({ max: 999 }).map((n) => `${sink}/${n}`) });
  }

  function mentions(op: OperationModel, ref: string): boolean {
    return op.body !== undefined && JSON.stringify(schemaAt(doc, op.body.pointer)).includes(`"${ref}"`);
  }

  async function validBodies(op: OperationModel, count: number): Promise<unknown[]> {
    if (!op.body) return [];
    const generator = await generatorFor(op);
    const pointer = op.body.pointer;
    const arbitrary = generator
      .arbitrary({ $ref: pointer })
      .map(orderSeenTimes)
      .map(prefixed)
      .filter((value) => validator.validate(pointer, value).valid);
    return samples(arbitrary, count, settings.seed);
  }

  async function invalidBodies(op: OperationModel, count: number) {
    if (!op.body) return [];
    const generator = await generatorFor(op);
    const pointer = op.body.pointer;
    const schema = { $ref: pointer };
    const arbitrary = generator
      .arbitrary(schema)
      .map(orderSeenTimes)
      .filter((value) => validator.validate(pointer, value).valid)
      .chain((base) => {
        const candidates = generator
          .mutations(schema, base)
          .map((mutation) => ({ mutation, body: applyMutation(base, mutation) }))
          .filter(({ body }) => !validator.validate(pointer, body).valid);
        // Wrong types outnumber every other kind; pick the kind first so bounds, missing and
        // unknown fields get their share of the cases. (Not Map.groupBy: the kit runs on Node 20.)
        const kinds = new Map<string, typeof candidates>();
        for (const candidate of candidates) {
          const kind = candidate.mutation.what.split(' ')[0]!;
          kinds.set(kind, [...(kinds.get(kind) ?? []), candidate]);
        }
        return fc.constantFrom(...kinds.values()).chain((kind) => fc.constantFrom(...kind));
      });
    const seen = new Set<string>();
    return samples(arbitrary, count * 2, settings.seed)
      .filter(({ mutation }) => {
        const key = `${mutation.at} ${mutation.what}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, count);
  }

  function validQueries(op: OperationModel, count: number): Record<string, string>[] {
    const params = op.params.filter((p) => p.in === 'query' && !SERVER_ISSUED_PARAMS.has(p.name));
    if (params.length === 0) return [];
    const generator = createGenerator(doc);
    const arbitrary = fc.record(Object.fromEntries(params.map((p) => [p.name, generator.arbitrary({ $ref: p.pointer }).map(String)])), {
      requiredKeys: params.filter((p) => p.required).map((p) => p.name),
    });
    return samples(arbitrary, count, settings.seed) as Record<string, string>[];
  }

  return { validBodies, invalidBodies, validQueries, mentions };
}
