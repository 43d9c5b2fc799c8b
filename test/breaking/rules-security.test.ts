// The security rules of the breaking-change gate, each on a pair of small documents (rule-pairs.ts):
// security requirements, scopes and schemes.
import { describe, expect, it } from 'vitest';
import { after, event, itSawEveryRuleOf, located, rulesOf, thing, things } from './rule-pairs.ts';

describe('security rules', () => {
  it('security-scope-added: an operation needs a scope it did not, through its own or the global security', () => {
    expect(after((doc) => (things(doc).post.security = [{ bearerAuth: ['write', 'admin'] }]))).toMatchObject([
      {
        rule: 'security-scope-added',
        pointer: '#/paths/~1v1~1things/post/security',
        before: ['bearerAuth[write]'],
        after: ['bearerAuth[write, admin]'],
        audience: ['clients'],
      },
    ]);
    const global = after((doc) => (doc.security = [{ bearerAuth: ['read', 'list'] }]));
    expect(located(global)).toEqual(['security-scope-added #/security', 'security-scope-added #/security']);
  });

  it('security-requirement-changed: another scheme, or one where none was needed; for webhooks, credentials no longer sent', () => {
    const other = after((doc) => {
      doc.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
      things(doc).post.security = [{ apiKey: [] }];
    });
    expect(other).toMatchObject([
      { rule: 'security-requirement-changed', message: 'POST /v1/things: bearerAuth[write] is no longer accepted' },
    ]);
    const anonymous = (doc: any) => (thing(doc).get.security = []);
    expect(rulesOf(after((doc) => delete thing(doc).get.security, anonymous))).toEqual(['security-requirement-changed']);
    expect(after(anonymous)).toEqual([]);
    expect(after((doc) => (event(doc).security = []))).toMatchObject([{ rule: 'security-requirement-changed', audience: ['receivers'] }]);
  });

  it('security-scheme-changed: bearer became an API-key header', () => {
    const changes = after((doc) => (doc.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-API-Key' }));
    expect(changes).toEqual([
      {
        rule: 'security-scheme-changed',
        pointer: '#/components/securitySchemes/bearerAuth',
        message: 'the security scheme bearerAuth now sends credentials differently',
        before: { type: 'http', scheme: 'bearer' },
        after: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        audience: ['clients'],
      },
    ]);
  });
});

itSawEveryRuleOf('security');
