// An integrator's code using the typed client: paths, parameters and bodies are checked against the
// contract, and errors arrive as problem documents to branch on by `type`.
import { createSecmonClient, type Problem, SecmonProblemError, unwrap } from 'secmon-api';
import type { components } from 'secmon-api/types';

type Finding = components['schemas']['Finding'];

const secmon = createSecmonClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.SECMON_API_KEY ?? '' });

/** Every open critical finding of a device, following cursors. */
export async function openCriticalFindings(deviceId: string): Promise<Finding[]> {
  const found: Finding[] = [];
  let cursor: string | undefined;
  do {
    const page = unwrap(
      await secmon.GET('/v1/findings', {
        params: { query: { status: 'open', severity: 'critical', device_id: deviceId, limit: 100, cursor } },
      }),
    );
    found.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return found;
}

/**
 * Resolves a finding. PUT replaces every writable field, so the current ones are sent back with the
 * new status; If-Match refuses the update if someone changed the finding in between.
 */
export async function resolveFinding(id: string): Promise<Finding | Problem> {
  const current = await secmon.GET('/v1/findings/{id}', { params: { path: { id } } });
  const finding = unwrap(current);
  const { data, error } = await secmon.PUT('/v1/findings/{id}', {
    params: { path: { id }, header: { 'If-Match': current.response.headers.get('etag') ?? '*' } },
    body: {
      title: finding.title,
      description: finding.description,
      severity: finding.severity,
      policy_id: finding.policy_id,
      status: 'resolved',
      resolution: { reason: 'fixed', comment: 'Patched in the 2026-11 rollout.' },
    },
  });
  if (error) {
    if (error.type === 'https://secmon.dev/problems/invalid-transition') return error;
    throw new SecmonProblemError(error);
  }
  return data;
}
