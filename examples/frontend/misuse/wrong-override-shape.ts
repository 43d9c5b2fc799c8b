// An override answering a policy whose severity the document does not have.
import { createSecmonMsw } from 'secmon-msw';

const policy = {
  id: 'pol_01jbz1a2b3c4d5e6f7g8h9j0k1',
  name: 'Disk encryption',
  description: '',
  severity: 'urgent' as const,
  enabled: true,
  frameworks: [],
  rule: null,
  compliance_status: 'compliant' as const,
  version: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
createSecmonMsw().override('getPolicy', () => ({ status: 200, body: policy })); // error: urgent
