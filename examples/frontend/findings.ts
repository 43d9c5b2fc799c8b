// A small frontend: the findings list of a security dashboard, with a form that reports a new
// finding. It only knows the typed client (secmon-api); its test, its stories and its page put the
// secmon-msw handlers behind that client instead of a server.
import type { SecmonClient } from 'secmon-api';

export interface FindingsView {
  /** The list's markup, or the error the page shows instead. */
  html: string;
  count: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Loads the first page of open and in-progress work and renders it. A problem is shown, not thrown. */
export async function loadFindings(client: SecmonClient): Promise<FindingsView> {
  const { data, error } = await client.GET('/v1/findings', { params: { query: { limit: 50 } } });
  if (error) return { html: `<p role="alert">${escapeHtml(error.title)}</p>`, count: 0 };
  if (data.data.length === 0) return { html: '<p>No findings. All clear.</p>', count: 0 };
  const items = data.data.map(
    (finding) => `<li data-id="${finding.id}">${escapeHtml(finding.title)} (${finding.severity}, ${finding.status})</li>`,
  );
  return { html: `<ul>${items.join('')}</ul>`, count: data.data.length };
}

/** Reports a finding on a device; returns the new id, or the problem's first invalid part. */
export async function reportFinding(client: SecmonClient, title: string, deviceId: string): Promise<{ id: string } | { invalid: string }> {
  const { data, error } = await client.POST('/v1/findings', { body: { title, severity: 'medium', device_id: deviceId } });
  if (error) return { invalid: error.errors?.[0]?.pointer ?? error.title };
  return { id: data.id };
}
