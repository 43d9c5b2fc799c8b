// `read-scope`: a key with only the read scope may use every GET operation.
import { defineCheck } from '../check.ts';
import type { KitContext } from '../context.ts';
import type { Check } from '../failure.ts';
import { statedFor } from '../rules/stated.ts';
import type { OperationModel } from '../spec.ts';
import { documentedResources, labels } from './shared/documented.ts';

const RULES = [
  'authentication.2',
  'listPolicies.5',
  'getPolicy.3',
  'listFindings.5',
  'getFinding.3',
  'listWebhooks.5',
  'getWebhook.3',
  'security.bearerAuth.2',
] as const;
type Rule = (typeof RULES)[number];

export const readScopeCheck = defineCheck({
  name: 'read-scope',
  column: 'read',
  rules: RULES,
  needs: { state: true, readKey: true },
  exercisesSuccess: true,
  cost: { fixed: 0, perCase: 0 },
  instances: (model) => {
    if (!documentedResources(model)) return [];
    return [{ subjects: model.resources.flatMap((r) => labels(r.list?.label, r.read?.label)), run: (ctx, check) => readScope(ctx, check) }];
  },
});

/** The operation's own sentence on the scope it needs, which a refused read-only key breaks. */
const readScoped = (op: OperationModel, status: number) =>
  status === 401 || status === 403 ? statedFor(op, /Needs the `read` scope/) : [];

async function readScope(ctx: KitContext, check: Check<Rule>): Promise<void | { skipped: string }> {
  if (!ctx.http.hasReadKey) return { skipped: 'no --read-key given' };
  for (const resource of ctx.model.resources) {
    if (resource.list) {
      const answer = await ctx.send(resource.list, { auth: 'read', query: { limit: '1' } });
      check.conform(
        resource.list,
        answer,
        { statuses: [200], rules: readScoped(resource.list, answer.status) },
        'a read-only key on a GET',
      );
    }
    if (resource.read) {
      const answer = await ctx.send(resource.read, { id: await ctx.fixture(resource), auth: 'read' });
      check.conform(
        resource.read,
        answer,
        { statuses: [200], rules: readScoped(resource.read, answer.status) },
        'a read-only key on a GET',
      );
    }
  }
}
