// An override answering a policy whose severity the document does not have.
import { createSecmonMsw } from 'secmon-msw';

const mock = createSecmonMsw();
mock.override('getPolicy', ({ params }) => ({
  status: 200,
  body: {
    id: params.id,
    name: 'Disk encryption',
    description: '',
    severity: 'urgent', // error: "urgent"
    enabled: true,
    frameworks: [],
    rule: null,
    compliance_status: 'compliant',
    version: 1,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  },
}));
