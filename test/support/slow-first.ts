// Test files start longest first, so the workers end together instead of one running a long file
// alone at the end. Vitest orders by the durations it cached on an earlier run, and a fresh
// clone (CI) has none: these files took 15 s or more on this machine, longest first (test/kit/ci-quota
// waits out a whole rate-limit window).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW = [
  'test/kit/ci-quota',
  'test/packages/',
  'test/browser/server-docs',
  'test/multi-instance/',
  'test/kit/pipeline',
  'test/kit/faults',
  'test/webhooks/isolation',
  'test/browser/settings',
  'test/webhooks/retries',
  'test/browser/docs-page',
  'test/webhooks/sqlite/crash',
  'test/mock/launcher',
  'test/kit/mock',
  'test/browser/cross-origin',
  'test/breaking/release',
  'test/kit/reference',
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
