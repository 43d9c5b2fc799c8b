// `credential-spellings`: the API key in the Authorization header spelt as HTTP allows is served
// (the scheme in any case, several spaces before the key), and spellings that do not carry it as a
// bearer token are refused (another scheme's name, a second word after the key, the key alone),
// however an implementation parses the header.
import { CREDENTIAL_SPELLINGS, type CredentialSpelling } from '../axes/answers.ts';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { OperationModel } from '../spec.ts';

const RULES = ['authentication.1', 'security.bearerAuth.1', 'authentication.3'] as const;
type Rule = (typeof RULES)[number];

export const credentialSpellingsCheck = defineCheck({
  name: 'credential-spellings',
  column: 'spell',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: CREDENTIAL_SPELLINGS.filter((spelling) => spelling.accepted).length, perCase: 0 },
  instances: (model) => {
    const list = model.resources.find((r) => r.name === 'policies')?.list;
    if (!list?.responses.has('401')) return [];
    return [{ subjects: [list.label], run: (ctx, check) => spellings(ctx, list, check) }];
  },
});

/**
 * A refusal: `401` as for a missing or unknown key, `400` where RFC 6750 calls the header
 * malformed (a second word), `429` over the address's failed-authentication limit.
 */
const REFUSED = [400, 401, 429];

async function spellings(ctx: KitContext, list: OperationModel, check: Check<Rule>): Promise<{ note: string }> {
  for (const spelling of CREDENTIAL_SPELLINGS) await judge(ctx, list, check, spelling);
  const served = CREDENTIAL_SPELLINGS.filter((spelling) => spelling.accepted).length;
  return { note: `${served} spellings of the key served, ${CREDENTIAL_SPELLINGS.length - served} refused` };
}

async function judge(ctx: KitContext, list: OperationModel, check: Check<Rule>, { name, accepted, spell }: CredentialSpelling) {
  const exchange = await ctx.send(list, { query: { limit: '1' }, auth: 'api', spell, acceptRateLimit: !accepted });
  const shown = exchange.request.headers.Authorization;
  if (accepted) {
    if (exchange.status === 401 || exchange.status === 403)
      check.fail({
        at: list,
        rule: ['security.bearerAuth.1', 'authentication.1'],
        observed: `the API key sent as "${shown}" (${name}) was refused with ${exchange.status}`,
        expected:
          'served: scheme names are case-insensitive (RFC 9110 section 11.1) and one or more spaces precede a bearer token (RFC 6750 section 2.1)',
        exchange,
      });
    return check.conform(list, exchange, { statuses: [200], rules: ['security.bearerAuth.1'] }, name);
  }
  if (!REFUSED.includes(exchange.status))
    check.fail({
      at: list,
      rule: 'authentication.3',
      observed: `"${shown}" (${name}) was answered ${exchange.status}`,
      expected: `refused with 401: the header carries no bearer token that is a key (${REFUSED.join(', ')} accepted as refusals)`,
      exchange,
    });
  return check.conform(list, exchange, { statuses: REFUSED }, name);
}
