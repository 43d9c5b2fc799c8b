// What the model reads from the document rather than repeating it: each resource's writable
// fields and their defaults (create and replace bodies), the fields fixed at creation, the
// write-only ones, and the life cycle of a resource with a state machine.
import type { OpenApiDocument } from 'secmon-api/src/document';
import { type Transitions, transitionsOf } from '../semantics.ts';
import { type ContractModel, type ResourceModel, schemaAt } from '../spec.ts';

export type Json = Record<string, unknown>;

export interface ResourceFacts {
  name: string;
  resource: ResourceModel;
  /** Fields of the create body. */
  createFields: string[];
  /** Fields a replace (`PUT`) sets; the others of the create body are fixed at creation. */
  replaceFields: string[];
  /** Defaults of omitted fields, by field (create and replace bodies say the same). */
  defaults: Map<string, unknown>;
  /** Fields sent but never returned (`writeOnly`). */
  writeOnly: Set<string>;
  transitions?: Transitions;
  /** A sent value with the defaults of its omitted nested fields filled in (a resolution's `comment`). */
  fill(field: string, value: unknown): unknown;
}

/** `value` with the defaults of the object schema it matches filled in, at every depth. */
export function fillDefaults(doc: OpenApiDocument, schema: Json | undefined, value: unknown): unknown {
  if (!schema || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (typeof schema.$ref === 'string') return fillDefaults(doc, schemaAt(doc, schema.$ref), value);
  const options = [...((schema.oneOf as Json[] | undefined) ?? []), ...((schema.allOf as Json[] | undefined) ?? [])];
  const filled = options.reduce<unknown>((current, option) => fillDefaults(doc, option, current), value);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const out: Json = { ...(filled as Json) };
  for (const [name, property] of Object.entries(properties)) {
    if (name in out) out[name] = fillDefaults(doc, property, out[name]);
    else {
      const found = defaultIn(doc, property);
      if (found && found.value !== null) out[name] = found.value;
    }
  }
  return out;
}

/** The `default` of a schema, following `$ref` and `allOf`; undefined when it has none. */
export function defaultIn(doc: OpenApiDocument, schema: Json | undefined): { value: unknown } | undefined {
  if (!schema) return undefined;
  if ('default' in schema) return { value: schema.default };
  if (typeof schema.$ref === 'string') return defaultIn(doc, schemaAt(doc, schema.$ref));
  for (const part of (schema.allOf as Json[] | undefined) ?? []) {
    const found = defaultIn(doc, part);
    if (found) return found;
  }
  return undefined;
}

function isWriteOnly(doc: OpenApiDocument, schema: Json): boolean {
  if (schema.writeOnly === true) return true;
  return typeof schema.$ref === 'string' && isWriteOnly(doc, schemaAt(doc, schema.$ref));
}

/** The facts of every CRUD resource with create and update bodies, by resource name. */
export function resourceFacts(model: ContractModel): Map<string, ResourceFacts> {
  const out = new Map<string, ResourceFacts>();
  for (const resource of model.resources) {
    const create = resource.create?.body && schemaAt(model.doc, resource.create.body.pointer);
    const update = resource.update?.body && schemaAt(model.doc, resource.update.body.pointer);
    if (!create || !update) continue;
    const createProps = (create.properties ?? {}) as Record<string, Json>;
    const updateProps = (update.properties ?? {}) as Record<string, Json>;
    const defaults = new Map<string, unknown>();
    const writeOnly = new Set<string>();
    for (const [field, schema] of [...Object.entries(createProps), ...Object.entries(updateProps)]) {
      const found = defaultIn(model.doc, schema);
      if (found && !defaults.has(field)) defaults.set(field, found.value);
      if (isWriteOnly(model.doc, schema)) writeOnly.add(field);
    }
    const transitions = transitionsOf(model, resource.update);
    out.set(resource.name, {
      name: resource.name,
      resource,
      createFields: Object.keys(createProps),
      replaceFields: Object.keys(updateProps),
      defaults,
      writeOnly,
      ...(transitions ? { transitions } : {}),
      fill: (field, value) => fillDefaults(model.doc, updateProps[field] ?? createProps[field], value),
    });
  }
  return out;
}
