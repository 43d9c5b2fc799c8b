// A preflight may list only the methods its request path has (HEAD with GET): the document says no
// more, so the kit must accept such an answer. Shared by the legal-variation suite and the packed kit's test.
import { loadDocument } from 'secmon-api/src/document';
import { header } from './fault-dsl.ts';

/** The document's methods for a request path, as a preflight's Access-Control-Allow-Methods value. */
export function methodsOf(requestPath: string): string {
  const path = new URL(requestPath, 'http://x').pathname;
  const [, item] =
    Object.entries(loadDocument().paths ?? {}).find(([template]) =>
      new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    ) ?? [];
  const methods = Object.keys(item ?? {}).filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key));
  return [...methods, ...(methods.includes('get') ? ['head'] : [])].map((m) => m.toUpperCase()).join(', ');
}

/** Preflights answered with only the path's methods. */
export const preflightWithPathMethods = header({ method: 'OPTIONS' }, 'access-control-allow-methods', (value, request) =>
  value === undefined ? undefined : methodsOf(request.path),
);
