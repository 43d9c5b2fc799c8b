// Invalid requests: "Validation problems add `errors`, a list of `{ pointer, message }` naming
// each invalid part of the request", pointers into the request seen as `{ body, query, path,
// headers }`. The model breaks several fields of a valid body at once, each break invalid on its
// own by the document's schema, and expects a 400 problem naming every one of them.
import type { Json } from './facts.ts';
import type { Difference } from './state.ts';

/** A value of the wrong type for any field: a field that is a boolean gets a string, any other a boolean. */
export function wrongValue(current: unknown): unknown {
  return typeof current === 'boolean' ? 'not-a-boolean' : true;
}

/**
 * `body` with the fields picked by `choose` (indices into its keys) replaced by values of the wrong
 * type, keeping only breaks `valid` confirms (a field that accepts anything cannot be broken this way).
 */
export function breakFields(body: Json, choose: number[], valid: (body: Json) => boolean): { body: Json; broken: string[] } {
  const fields = Object.keys(body);
  const broken: string[] = [];
  const out: Json = { ...body };
  for (const index of choose) {
    const field = fields[index % fields.length]!;
    if (broken.includes(field)) continue;
    if (valid({ ...body, [field]: wrongValue(body[field]) })) continue;
    out[field] = wrongValue(body[field]);
    broken.push(field);
  }
  return { body: out, broken };
}

export function judgeInvalid(broken: string[], status: number, mediaType: string, json: unknown): Difference[] {
  if (status !== 400) return [{ rule: 'errors.5', message: `a body with ${broken.length} invalid fields got ${status}, not 400` }];
  if (mediaType !== 'application/problem+json') return [{ rule: 'errors.1', message: `the 400 came as ${mediaType || '(no type)'}` }];
  const errors = (json as { errors?: { pointer?: unknown }[] } | undefined)?.errors;
  const pointers = Array.isArray(errors) ? errors.map((error) => String(error.pointer)) : [];
  const unnamed = broken.filter((field) => !pointers.some((p) => p === `/body/${field}` || p.startsWith(`/body/${field}/`)));
  return unnamed.length === 0
    ? []
    : [
        {
          rule: 'errors.2',
          message: `the problem names ${pointers.length === 0 ? 'no part' : pointers.join(', ')} but not ${unnamed.map((f) => `/body/${f}`).join(', ')}`,
        },
      ];
}
