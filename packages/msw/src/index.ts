// secmon-msw: Mock Service Worker handlers for every SecMon API operation, built from the
// document, for frontend tests (msw/node), the browser (msw/browser) and stories.
export { createSecmonMsw, type SecmonMsw, type SecmonMswOptions } from './handlers.ts';
export type { DocumentedStatus, ExampleName, OperationId, OverrideAnswer, OverrideRequest, OverrideResolver, Scenario } from './types.ts';
