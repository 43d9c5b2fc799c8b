// Rules on security: which credentials each operation needs, and how each scheme sends them.
import type { OpenAPIV3_1 } from 'openapi-types';
import { escapePointer } from '../../../packages/api/src/document.ts';
import { type Audience, type Change, keptOperations } from '../model.ts';
import { changeOf, type DocumentRule } from './operations.ts';

type Requirement = OpenAPIV3_1.SecurityRequirementObject;

/** `inner` asks for no scheme and no scope that `outer` does not: credentials for `outer` satisfy it. */
const within = (inner: Requirement, outer: Requirement) =>
  Object.entries(inner).every(([scheme, scopes]) => scheme in outer && scopes.every((scope) => outer[scheme]!.includes(scope)));

const schemesOf = (requirement: Requirement) => Object.keys(requirement).sort().join(' ');

const describe = (alternatives: Requirement[]) =>
  alternatives.map(
    (requirement) =>
      Object.entries(requirement)
        .map(([scheme, scopes]) => (scopes.length ? `${scheme}[${scopes.join(', ')}]` : scheme))
        .join(' + ') || 'none',
  );

/**
 * Credentials that satisfied the released document no longer do. API clients hold credentials
 * for one of the released alternatives, so each must still satisfy some revision alternative.
 * For a webhook the service is the one sending credentials and receivers check them, so each
 * alternative the service may now send must still satisfy one receivers were told to expect.
 */
export const securityRequirementChanged: DocumentRule = (comparison) =>
  keptOperations(comparison).flatMap((op) => {
    const [before, after] = [op.base.security, op.revision.security];
    const [held, accepted] = op.sent === 'to-service' ? [before, after] : [after, before];
    return held
      .filter((credentials) => !accepted.some((requirement) => within(requirement, credentials)))
      .map((credentials) => {
        const sameSchemes = accepted.find((requirement) => schemesOf(requirement) === schemesOf(credentials));
        return changeOf(sameSchemes ? 'security-scope-added' : 'security-requirement-changed', op, {
          pointer: op.revision.securityPointer,
          message: sameSchemes
            ? `${op.label}: ${describe([credentials])} is no longer enough; it needs ${describe([sameSchemes])}`
            : `${op.label}: ${describe([credentials])} is no longer ${op.sent === 'to-service' ? 'accepted' : 'what receivers are told to expect'}`,
          before: describe(before),
          after: describe(after),
        });
      });
  });

const SCHEME_FIELDS = ['type', 'scheme', 'in', 'name', 'openIdConnectUrl'] as const;

/** What decides how credentials travel: type, HTTP scheme, API-key location and name, OAuth URLs. */
function wire(scheme: OpenAPIV3_1.SecuritySchemeObject | undefined): Record<string, unknown> | undefined {
  if (!scheme) return undefined;
  const fields: Record<string, unknown> = {};
  for (const field of SCHEME_FIELDS) {
    const value = (scheme as unknown as Record<string, unknown>)[field];
    if (value !== undefined) fields[field] = field === 'scheme' ? String(value).toLowerCase() : value;
  }
  for (const [flow, settings] of Object.entries((scheme as { flows?: Record<string, Record<string, unknown>> }).flows ?? {})) {
    fields[`flows.${flow}`] = [settings.authorizationUrl, settings.tokenUrl, settings.refreshUrl];
  }
  return fields;
}

/** A scheme some kept operation relies on now sends credentials another way (bearer → API-key header). */
export const securitySchemeChanged: DocumentRule = (comparison) => {
  const users = new Map<string, Set<Audience>>();
  for (const op of keptOperations(comparison)) {
    for (const scheme of op.base.security.flatMap((requirement) => Object.keys(requirement))) {
      users.set(scheme, (users.get(scheme) ?? new Set()).add(op.audience));
    }
  }
  const schemes = (doc: typeof comparison.base) =>
    (doc.components?.securitySchemes ?? {}) as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  return [...users].flatMap(([name, audience]): Change[] => {
    const [before, after] = [wire(schemes(comparison.base)[name]), wire(schemes(comparison.revision)[name])];
    if (JSON.stringify(before) === JSON.stringify(after)) return [];
    return [
      {
        rule: 'security-scheme-changed',
        pointer: `#/components/securitySchemes/${escapePointer(name)}`,
        message: after ? `the security scheme ${name} now sends credentials differently` : `the security scheme ${name} was removed`,
        before,
        after,
        audience: [...audience],
      },
    ];
  });
};
