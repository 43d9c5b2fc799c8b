// The generated types, as the package exports them (`secmon-api/types`). Type-only: importing it
// at run time yields an empty module.
export type { components, operations, paths, webhooks } from '../../../generated/schema.d.ts';
