// The rules the gate runs, one pure function each (see rules/ and additions.ts); catalogue.ts
// says which oasdiff rule each corresponds to.
import * as additions from './additions.ts';
import {
  type DocumentRule,
  eventTypeRemoved,
  mediaTypeRemoved,
  operationIdChanged,
  operationRemoved,
  requestBodyBecameRequired,
  responseHeaderRemoved,
  statusCodeRemoved,
} from './rules/operations.ts';
import { parameterRemoved, requiredParameterAdded, signatureSchemeChanged, webhookHeaderRemoved } from './rules/parameters.ts';
import type { SchemaRule } from './rules/schemas.ts';
import * as schemas from './rules/schemas.ts';
import { securityRequirementChanged, securitySchemeChanged } from './rules/security.ts';

export type { DocumentRule, SchemaRule };

export const DOCUMENT_RULES: readonly DocumentRule[] = [
  operationRemoved,
  eventTypeRemoved,
  operationIdChanged,
  statusCodeRemoved,
  requestBodyBecameRequired,
  mediaTypeRemoved,
  responseHeaderRemoved,
  parameterRemoved,
  requiredParameterAdded,
  webhookHeaderRemoved,
  signatureSchemeChanged,
  securityRequirementChanged,
  securitySchemeChanged,
];

export const SCHEMA_RULES: readonly SchemaRule[] = [
  schemas.enumValueRemoved,
  schemas.becameEnum,
  schemas.constChanged,
  schemas.requiredRequestFieldAdded,
  schemas.fieldRemoved,
  schemas.fieldBecameOptional,
  schemas.fieldBecameReadOnly,
  schemas.fieldBecameWriteOnly,
  schemas.defaultChanged,
  schemas.boundNarrowed,
  schemas.boundWidened,
  schemas.patternChanged,
  schemas.typeChanged,
  schemas.formatChanged,
  schemas.variantsChanged,
  schemas.allOfAdded,
];

export const ADDITIVE_DOCUMENT_RULES: readonly DocumentRule[] = [
  additions.operationsAdded,
  additions.parametersAdded,
  additions.statusesAdded,
  additions.responseHeadersAdded,
  additions.mediaTypesAdded,
];

export const ADDITIVE_SCHEMA_RULES: readonly SchemaRule[] = [additions.fieldsAdded, additions.enumValuesAdded];
