// `credential-spellings`: the API key in the Authorization header spelt as HTTP allows is served
// (the scheme in any case, several spaces before the key), and spellings that do not carry it as a
// bearer token are refused (another scheme's name, a second word after the key, the key alone),
// however an implementation parses the header.
import { CREDENTIAL_SPELLINGS } from '../axes/answers.ts';
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import type { Exchange } from '../http.ts';
import type { OperationModel } from '../spec.ts';

const RULES = ['authentication.1', 'security.bearerAuth.1', 'authentication.3'] as const;
type Rule = (typeof RULES)[number];

/** The spellings sent with the key that must be served: the requests the check spends on the key's quota. */
const SERVED = CREDENTIAL_SPELLINGS.filter((spelling) => spelling.accepted).length;

export const credentialSpellingsCheck = defineCheck({
  name: 'credential-spellings',
  column: 'spell',
  rules: RULES,
  needs: {},
  exercisesSuccess: false,
  cost: { fixed: SERVED, perCase: 0 },
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

/**
 * Every spelling is sent before anything is judged: a server that reads the header one way misreads
 * several spellings at once, and its failure lists them all (one parser, one fix), with the first
 * misread exchange as the one to replay.
 */
async function spellings(ctx: KitContext, list: OperationModel, check: Check<Rule>): Promise<{ note: string }> {
  const sent: ((typeof CREDENTIAL_SPELLINGS)[number] & { exchange: Exchange })[] = [];
  for (const spelling of CREDENTIAL_SPELLINGS)
    sent.push({
      ...spelling,
      exchange: await ctx.send(list, { query: { limit: '1' }, auth: 'api', spell: spelling.spell, acceptRateLimit: !spelling.accepted }),
    });
  const misread = sent.filter(({ accepted, exchange }) =>
    accepted ? exchange.status === 401 || exchange.status === 403 : exchange.status < 400,
  );
  const shown = ({ name, exchange }: (typeof sent)[number]) => `"${exchange.request.headers.Authorization}" (${name}): ${exchange.status}`;
  const refused = misread.filter((one) => one.accepted).map(shown);
  const served = misread.filter((one) => !one.accepted).map(shown);
  const found = [
    ...(refused.length > 0
      ? check.found({
          rule: ['security.bearerAuth.1', 'authentication.1'],
          observed: `the API key was refused in ${refused.length} of the spellings HTTP allows`,
          details: refused,
          expected:
            'served: scheme names are case-insensitive (RFC 9110 section 11.1) and one or more spaces precede a bearer token (RFC 6750 section 2.1)',
        })
      : []),
    ...(served.length > 0
      ? check.found({
          rule: 'authentication.3',
          observed: `${served.length} of the spellings that carry no bearer key were not refused`,
          details: served,
          expected: `refused with 401: the header carries no bearer token that is a key (${REFUSED.join(', ')} accepted as refusals)`,
        })
      : []),
  ];
  if (found.length > 0) check.failAll({ at: list, found, exchange: misread[0]!.exchange });
  for (const { name, accepted, exchange } of sent)
    check.conform(list, exchange, accepted ? { statuses: [200], rules: ['security.bearerAuth.1'] } : { statuses: REFUSED }, name);
  return { note: `${SERVED} spellings of the key served, ${CREDENTIAL_SPELLINGS.length - SERVED} refused` };
}
