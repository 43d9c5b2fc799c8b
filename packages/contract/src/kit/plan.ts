// Which checks run for which operation and webhook: every definition of the registry gives its
// instances for the document (nothing here names an operation or a check). A check that needs what
// the run lacks (state, a read-only key, events) is planned as skipped with its reason, so the
// coverage table can say why.
import { type CheckRun, type PlanOptions, unmetNeed } from './check.ts';
import type { KitContext } from './context.ts';
import { checkHandle } from './failure.ts';
import { type CheckName, DEFINITIONS } from './registry.ts';
import type { ContractModel } from './spec.ts';

export interface PlannedCheck {
  /** Unique within the plan: `<first subject> › <check>`. */
  id: `${string} › ${CheckName}`;
  check: CheckName;
  /** Labels of the operations or webhooks this check covers; the first is the one it is filed under. */
  subjects: string[];
  /** The check verifies a success response or a delivery (what the coverage gate requires). */
  exercisesSuccess: boolean;
  /** Planned skip, with the reason shown in the coverage table. */
  skip?: string;
  run: CheckRun;
  prepare?: (ctx: KitContext) => void;
}

export function planChecks(model: ContractModel, options: PlanOptions): PlannedCheck[] {
  return DEFINITIONS.flatMap((definition) => {
    const unmet = unmetNeed(definition.needs, options);
    const check = definition.name;
    const handle = (ctx: KitContext) => checkHandle(definition, ctx.sentValidator);
    return definition.instances(model, options).map((instance): PlannedCheck => {
      const skip = unmet ?? instance.skip;
      const { prepare } = instance;
      return {
        id: `${instance.subjects[0]} › ${check}`,
        check,
        subjects: instance.subjects,
        exercisesSuccess: definition.exercisesSuccess,
        run: (ctx, cases) => instance.run(ctx, handle(ctx), cases),
        ...(skip ? { skip } : {}),
        ...(prepare ? { prepare: (ctx: KitContext) => prepare(ctx, handle(ctx)) } : {}),
      };
    });
  });
}
