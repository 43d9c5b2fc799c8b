// The rules the document states about findings and the policies they reference: a finding's life
// cycle, references that must exist, a policy in use, and the compliance status derived from both.
import { defineCheck } from '../check.ts';
import { compliance } from '../checks/compliance.ts';
import { findingLifecycle, policyInUse, references } from '../checks/findings-rules.ts';
import { documentedResources, labels, withResources } from './documented.ts';

export const findingLifecycleCheck = defineCheck({
  name: 'finding-lifecycle',
  column: 'life',
  rules: [
    'createFinding.1',
    'updateFinding.3',
    'schema.Finding.2',
    'schema.Finding.3',
    'schema.FindingCreate.2',
    'schema.FindingUpdate.2',
    'schema.FindingUpdate.4',
    'schema.Resolution.2',
    'schema.Resolution.4',
    'schema.ResolutionReason.2',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 8, perCase: 0 },
  instances: (model, _options, check) =>
    withResources(model, ({ findings }) => ({
      subjects: [findings.update.label, findings.create.label, findings.read.label],
      run: (ctx) => findingLifecycle(ctx, check),
    })),
});

export const referencesCheck = defineCheck({
  name: 'references',
  column: 'refs',
  rules: ['errors.5', 'schema.FindingCreate.3'],
  needs: { state: true },
  exercisesSuccess: false,
  cost: { fixed: 4, perCase: 0 },
  instances: (model, _options, check) =>
    withResources(model, (found) => ({
      subjects: [found.findings.create.label, found.findings.update.label],
      run: (ctx) => references(ctx, check),
    })),
});

export const policyInUseCheck = defineCheck({
  name: 'policy-in-use',
  column: 'inuse',
  rules: ['deletePolicy.2', 'deletePolicy.6'],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 8, perCase: 0 },
  instances: (model, _options, check) =>
    withResources(model, (found) => ({
      subjects: [found.policies.delete.label, found.findings.update.label],
      run: (ctx) => policyInUse(ctx, check),
    })),
});

export const complianceCheck = defineCheck({
  name: 'compliance',
  column: 'compl',
  rules: [
    'createPolicy.2',
    'createFinding.2',
    'updateFinding.4',
    'deleteFinding.2',
    'complianceChanged.1',
    'complianceChanged.2',
    'schema.ComplianceChangedEvent.1',
    'schema.ComplianceChangedEvent.4',
    'schema.ComplianceStatus.1',
    'schema.ComplianceStatus.2',
  ],
  needs: { state: true },
  exercisesSuccess: true,
  cost: { fixed: 15, perCase: 0 },
  instances: (model, _options, check) => {
    const found = documentedResources(model);
    if (!found) return [];
    const { policies, findings, hook } = found;
    return [
      {
        subjects: labels(
          policies.read.label,
          findings.create.label,
          findings.update.label,
          findings.delete.label,
          hook('compliance.changed'),
        ),
        run: (ctx) => compliance(ctx, check),
      },
    ];
  },
});
