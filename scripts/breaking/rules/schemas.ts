// Rules on one pair of schemas found by schemaPairsOf, at any depth (properties, array items,
// oneOf/anyOf/allOf members). `to-service` schemas must not accept less; `from-service` ones
// must not send what readers did not expect, nor stop sending what they read.
import { escapePointer } from '../../../packages/api/src/document.ts';
import type { BreakingRuleId } from '../catalogue.ts';
import type { Change, Schema } from '../model.ts';
import { matchMembers, type SchemaPair, typesOf } from '../schema-pairs.ts';

export type SchemaRule = (pair: SchemaPair) => Change[];

const changeAt = (rule: BreakingRuleId, pair: SchemaPair, fields: Omit<Change, 'rule' | 'audience'>): Change => ({
  rule,
  ...fields,
  audience: [pair.audience],
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const field = (schema: Schema, key: string) => (schema as Record<string, unknown>)[key];

/**
 * A value is gone from an enum. In a request, clients sending it are refused; in a response or
 * event, readers lose a value they handle. The Versioning section allows neither within v1 (it
 * allows new values, which additions.ts lists).
 */
export const enumValueRemoved: SchemaRule = (pair) => {
  const [before, after] = [pair.base.enum, pair.revision.enum];
  if (!before || !after) return [];
  return before
    .filter((value) => !after.some((kept) => same(kept, value)))
    .map((value) =>
      changeAt('enum-value-removed', pair, {
        pointer: `${pair.pointer}/enum`,
        message: `the value ${JSON.stringify(value)} was removed`,
        before,
        after,
      }),
    );
};

/** A free request value is now limited to a list. */
export const becameEnum: SchemaRule = (pair) =>
  pair.direction === 'to-service' && !pair.base.enum && !('const' in pair.base) && pair.revision.enum
    ? [
        changeAt('became-enum', pair, {
          pointer: `${pair.pointer}/enum`,
          message: 'the value is now limited to an enum',
          after: pair.revision.enum,
        }),
      ]
    : [];

/** A request const added or changed narrows; a response or event const changed or removed widens. */
export const constChanged: SchemaRule = (pair) => {
  const [had, has] = ['const' in pair.base, 'const' in pair.revision];
  if (!had && !has) return [];
  if (had && has && same(pair.base.const, pair.revision.const)) return [];
  if (pair.direction === 'to-service' ? !has : !had) return [];
  return [
    changeAt('const-changed', pair, {
      pointer: `${pair.pointer}/const`,
      message: `the const ${had ? (has ? 'changed' : 'was removed') : 'was added'}`,
      before: pair.base.const,
      after: pair.revision.const,
    }),
  ];
};

/** A request field clients must now send (read-only fields are not sent, so they do not count). */
export const requiredRequestFieldAdded: SchemaRule = (pair) =>
  pair.direction !== 'to-service'
    ? []
    : (pair.revision.required ?? [])
        .filter((name) => !(pair.base.required ?? []).includes(name) && !pair.revisionProperties[name]?.readOnly)
        .map((name) =>
          changeAt('required-request-field-added', pair, {
            pointer: `${pair.pointer}/required`,
            message: `the request field ${name} is now required`,
            before: pair.base.required ?? [],
            after: pair.revision.required,
          }),
        );

/**
 * A field is gone. In a response or event, readers of it break (write-only fields were never
 * sent). In a request, a closed object now refuses it, so clients sending it break.
 */
export const fieldRemoved: SchemaRule = (pair) => {
  const toService = pair.direction === 'to-service';
  if (toService && pair.revision.additionalProperties !== false && field(pair.revision, 'unevaluatedProperties') !== false) return [];
  return Object.entries(pair.baseProperties)
    .filter(([name, property]) => !(name in pair.revisionProperties) && !(toService ? property.readOnly : property.writeOnly))
    .map(([name]) =>
      changeAt('field-removed', pair, {
        pointer: `${pair.pointer}/properties/${escapePointer(name)}`,
        message: `the ${toService ? 'request' : 'response or event'} field ${name} was removed`,
      }),
    );
};

/** A response or event field that was always present may now be missing. */
export const fieldBecameOptional: SchemaRule = (pair) =>
  pair.direction !== 'from-service'
    ? []
    : (pair.base.required ?? [])
        .filter((name) => name in pair.revisionProperties && !(pair.revision.required ?? []).includes(name))
        .map((name) =>
          changeAt('field-became-optional', pair, {
            pointer: `${pair.pointer}/required`,
            message: `the response or event field ${name} is no longer always present`,
            before: pair.base.required,
            after: pair.revision.required ?? [],
          }),
        );

/** A request field became readOnly: a validating service refuses it where clients send it. */
export const fieldBecameReadOnly: SchemaRule = (pair) =>
  pair.direction === 'to-service' && pair.revision.readOnly && !pair.base.readOnly
    ? [
        changeAt('field-became-read-only', pair, {
          pointer: `${pair.pointer}/readOnly`,
          message: 'the request field became readOnly',
          before: false,
          after: true,
        }),
      ]
    : [];

/** A response or event field became writeOnly: it is no longer sent to those who read it. */
export const fieldBecameWriteOnly: SchemaRule = (pair) =>
  pair.direction === 'from-service' && pair.revision.writeOnly && !pair.base.writeOnly
    ? [
        changeAt('field-became-write-only', pair, {
          pointer: `${pair.pointer}/writeOnly`,
          message: 'the response or event field became writeOnly',
          before: false,
          after: true,
        }),
      ]
    : [];

/** A client that omits a request field or parameter now gets other behaviour. */
export const defaultChanged: SchemaRule = (pair) =>
  pair.direction === 'to-service' && !same(pair.base.default, pair.revision.default)
    ? [
        changeAt('default-changed', pair, {
          pointer: `${pair.pointer}/default`,
          message: `the default ${pair.base.default === undefined ? 'was added' : pair.revision.default === undefined ? 'was removed' : 'changed'}`,
          before: pair.base.default,
          after: pair.revision.default,
        }),
      ]
    : [];

const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'] as const;
const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'] as const;

/** Bounds that moved toward `tighter`: a bound added counts as tighter, one removed as looser. */
function boundsMoved(
  pair: SchemaPair,
  rule: BreakingRuleId,
  moved: (before: number | undefined, after: number | undefined, upper: boolean) => boolean,
): Change[] {
  const bound = (schema: Schema, key: string) => field(schema, key) as number | undefined;
  return [...UPPER_BOUNDS.map((key) => [key, true] as const), ...LOWER_BOUNDS.map((key) => [key, false] as const)].flatMap(
    ([key, upper]) => {
      const [before, after] = [bound(pair.base, key), bound(pair.revision, key)];
      return before !== after && moved(before, after, upper)
        ? [
            changeAt(rule, pair, {
              pointer: `${pair.pointer}/${key}`,
              message: `${key} went from ${before ?? 'none'} to ${after ?? 'none'}`,
              before,
              after,
            }),
          ]
        : [];
    },
  );
}

/** A request value that was valid is refused: an upper bound lowered or a lower bound raised (or added). */
export const boundNarrowed: SchemaRule = (pair) =>
  pair.direction !== 'to-service'
    ? []
    : boundsMoved(
        pair,
        'bound-narrowed',
        (before, after, upper) => after !== undefined && (before === undefined || (upper ? after < before : after > before)),
      );

/** A response or event value may now exceed what readers were promised: a bound loosened or dropped. */
export const boundWidened: SchemaRule = (pair) =>
  pair.direction !== 'from-service'
    ? []
    : boundsMoved(
        pair,
        'bound-widened',
        (before, after, upper) => before !== undefined && (after === undefined || (upper ? after > before : after < before)),
      );

/** A pattern changed: values valid before may be refused (requests) or unparseable (responses, events). */
export const patternChanged: SchemaRule = (pair) => {
  const [before, after] = [pair.base.pattern, pair.revision.pattern];
  if (before === after) return [];
  // Dropping a request pattern only accepts more; adding a response pattern only sends less.
  if (pair.direction === 'to-service' ? after === undefined : before === undefined) return [];
  return [
    changeAt('pattern-changed', pair, {
      pointer: `${pair.pointer}/pattern`,
      message: `the pattern ${before ?? 'none'} became ${after ?? 'none'}`,
      before,
      after,
    }),
  ];
};

/**
 * The allowed JSON types changed the wrong way: a request type narrowed (say string|null → string)
 * or a response or event type widened (say string → string|null, which readers do not expect).
 */
export const typeChanged: SchemaRule = (pair) => {
  const [before, after] = [typesOf(pair.base), typesOf(pair.revision)];
  const covers = (set: Set<string> | undefined, type: string) =>
    set === undefined || set.has(type) || (type === 'integer' && set.has('number'));
  const toService = pair.direction === 'to-service';
  const [from, to] = toService ? [before, after] : [after, before];
  const lost = from === undefined ? ['any'] : [...from].filter((type) => !covers(to, type));
  if (lost.length === 0 || (from === undefined && to === undefined)) return [];
  const describe = (set: Set<string> | undefined) => (set ? [...set].join('|') : 'any');
  return [
    changeAt(toService ? 'type-narrowed' : 'type-widened', pair, {
      pointer: `${pair.pointer}/type`,
      message: `the ${toService ? 'request' : 'response or event'} type went from ${describe(before)} to ${describe(after)}`,
      before: describe(before),
      after: describe(after),
    }),
  ];
};

/** A format added or changed narrows a request; changed or dropped, it widens a response or event. */
export const formatChanged: SchemaRule = (pair) => {
  const [before, after] = [pair.base.format, pair.revision.format];
  if (before === after || (pair.direction === 'to-service' ? after === undefined : before === undefined)) return [];
  return [
    changeAt('format-changed', pair, {
      pointer: `${pair.pointer}/format`,
      message: `the format ${before ?? 'none'} became ${after ?? 'none'}`,
      before,
      after,
    }),
  ];
};

/**
 * oneOf/anyOf members changed the wrong way: a request lost a member it could match (or the
 * choice itself), or a response or event gained one readers do not know (or became a choice).
 */
export const variantsChanged: SchemaRule = (pair) => {
  const toService = pair.direction === 'to-service';
  return (['oneOf', 'anyOf'] as const).flatMap((combinator) => {
    const [before, after] = [pair.base[combinator], pair.revision[combinator]];
    const members = matchMembers(before, after, [pair.base.type, pair.revision.type]);
    return (toService ? members.removed : members.added).map((member) =>
      changeAt(toService ? 'schema-variant-removed' : 'schema-variant-added', pair, {
        pointer: `${pair.pointer}/${combinator}`,
        message: `the ${combinator} member ${JSON.stringify(member)} was ${toService ? 'removed' : 'added'}`,
        before: before?.length ?? 0,
        after: after?.length ?? 0,
      }),
    );
  });
};

/** A request schema must now also match another allOf member. */
export const allOfAdded: SchemaRule = (pair) =>
  pair.direction !== 'to-service'
    ? []
    : matchMembers(pair.base.allOf, pair.revision.allOf).added.map((member) =>
        changeAt('all-of-added', pair, {
          pointer: `${pair.pointer}/allOf`,
          message: `the allOf member ${JSON.stringify(member)} was added`,
        }),
      );
