// Test files start longest first, so the workers end together instead of one running a long file
// alone at the end. Vitest orders by the durations it cached on an earlier run, and a fresh
// clone (CI) has none: these files took 15 s or more in a whole run on this machine, longest
// first (a prefix names every file it starts: both settings files, the kit's reference suite on
// both stores).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW = [
  'test/packages/contract.test',
  'test/browser/server-docs',
  'test/mock/launcher',
  'test/packages/contract-versions',
  'test/packages/contract-variations',
  'test/kit/model-faults',
  'test/kit/ci-quota',
  'test/kit/proofs-deliveries',
  'test/multi-instance/instances',
  'test/kit/reference',
  'test/kit/pipeline',
  'test/breaking/release',
  'test/kit/variations',
  'test/kit/faults-cli',
  'test/browser/settings',
  'test/kit/faults.test',
  'test/browser/cross-origin',
  'test/packages/msw',
  'test/browser/docs-page',
  'test/packages/mock',
  'test/multi-instance/database-faults',
  'test/packages/client',
  'test/mock/stateful',
  'test/kit/proofs-problems',
  'test/webhooks/retries',
  'test/webhooks/sqlite/crash',
  'test/kit/mock',
  'test/mock/prism',
  'test/kit/proofs-resources',
];

const rank = (file: TestSpecification) => {
  const index = SLOW.findIndex((prefix) => file.moduleId.includes(prefix));
  return index === -1 ? SLOW.length : index;
};

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
