// Test files start longest first, so the workers end together instead of one running a long file
// alone at the end. Vitest orders by the durations it cached on an earlier run, and a fresh
// clone (CI) has none: these files took 15 s or more in a whole run on this machine, longest
// first (a prefix names every file it starts: both settings files, the kit's reference suite on
// both stores).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW = [
  'test/packages/contract.test',
  'test/browser/server-docs',
  'test/browser/docs-walk',
  'packages/mock/test/launcher',
  'packages/contract/test/model-faults',
  'packages/contract/test/ci-quota',
  'packages/contract/test/proofs-deliveries',
  'packages/contract/test/reference',
  'packages/contract/test/pipeline',
  'test/breaking/release',
  'packages/contract/test/variations',
  'packages/contract/test/faults-cli',
  'test/browser/settings',
  'packages/contract/test/faults.test',
  'test/browser/cross-origin',
  'test/packages/msw',
  'test/packages/mock',
  'test/multi-instance/database-faults',
  'test/packages/client',
  'packages/mock/test/stateful',
  'packages/contract/test/proofs-problems',
  'test/webhooks/retries',
  'test/webhooks/sqlite/crash',
  'packages/contract/test/mock',
  'packages/mock/test/prism',
  'packages/contract/test/proofs-resources',
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
