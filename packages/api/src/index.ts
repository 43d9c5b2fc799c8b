// The package entry (`secmon-api`): the typed client, webhook verification and event parsing, and
// the generated types. Subpaths `secmon-api/client`, `/webhooks` and `/types` export the parts.
export * from './client.ts';
export type * from './types.ts';
export * from './webhooks.ts';
