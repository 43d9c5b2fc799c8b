// One Ajv 2020-12 instance over the whole bundled document, so any schema in it (a component, a
// response body, a webhook payload) can be validated by JSON pointer with formats enforced.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { loadDocument, type OpenApiDocument } from './document.ts';

// ajv-formats is CommonJS: under NodeNext its default import is typed as the module object, whose
// `default` is the plugin (the package sets module.exports.default to the plugin as well).
const addFormats = formats.default;

const DOCUMENT_ID = 'https://secmon.dev/openapi.json';

export interface SchemaValidator {
  /** Validates `value` against the schema at `pointer` (for example `#/components/schemas/Policy`). */
  validate(pointer: string, value: unknown): ValidationResult;
}

export type ValidationResult = { valid: true } | { valid: false; errors: ErrorObject[]; message: string };

export function createSchemaValidator(doc: OpenApiDocument = loadDocument()): SchemaValidator {
  // OpenAPI adds keywords (example, discriminator, xml, externalDocs) that are not JSON Schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID }, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  return {
    validate(pointer, value) {
      let fn = compiled.get(pointer);
      if (!fn) {
        fn = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
        compiled.set(pointer, fn);
      }
      if (fn(value)) return { valid: true };
      const errors = fn.errors ?? [];
      return { valid: false, errors, message: ajv.errorsText(errors, { dataVar: 'body' }) };
    },
  };
}

/** JSON pointer of a component schema. */
export const schemaPointer = (name: string) => `#/components/schemas/${name}`;
