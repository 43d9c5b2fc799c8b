// The findings list's stories in Component Story Format. Storybook with msw-storybook-addon reads
// `parameters.msw.handlers`; findings.test.ts renders each story the same way without Storybook.
import { createSecmonMsw } from 'secmon-msw';

export const mock = createSecmonMsw();

export default { title: 'Findings/List', parameters: { msw: { handlers: mock.handlers } } };

/** The document's example page of findings. */
export const Default = { parameters: { msw: { handlers: mock.handlers } } };

/** The documented empty page (`listFindings` example `empty`). */
export const Empty = { parameters: { msw: { handlers: [mock.scenario('listFindings', { example: 'empty' })] } } };

/** The service is down: the documented 503. */
export const Unavailable = { parameters: { msw: { handlers: [mock.scenario('listFindings', { code: 503 })] } } };

/** One critical finding, answered by a typed override. */
export const OneCritical = {
  parameters: {
    msw: {
      handlers: [
        mock.override('listFindings', () => ({
          status: 200,
          body: {
            data: [
              {
                id: 'fnd_01jbz3k7q2w9x8v6t5r4p3n2m1',
                title: 'Root login over SSH',
                description: '',
                severity: 'critical',
                status: 'open',
                resolution: null,
                device_id: 'dev_01jbz1a2b3c4d5e6f7g8h9j0k1',
                policy_id: null,
                first_seen_at: '2026-11-01T09:00:00Z',
                last_seen_at: '2026-11-01T09:00:00Z',
                resolved_at: null,
                created_at: '2026-11-01T09:00:00Z',
                updated_at: '2026-11-01T09:00:00Z',
              },
            ],
            next_cursor: null,
          },
        })),
      ],
    },
  },
};
