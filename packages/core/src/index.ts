// secmon-core: the use cases, the domain rules, the repository port and its in-memory adapter.
export { type Core, createCore } from './core.ts';
export type { Digests } from './digests.ts';
export type { DomainError, Outcome } from './domain/errors.ts';
export { ifMatchSatisfied, ifNoneMatchHits } from './domain/etag.ts';
export { type MemoryRepository, memoryRepository } from './memory/memory-repository.ts';
export type { Platform } from './platform.ts';
export * from './port.ts';
export { portablePlatform } from './portable-platform.ts';
export { insertSeed, seedRecords } from './seed.ts';
export { publish, receives, recipientsOf } from './use-cases/recipients.ts';
export type { Created, IdempotentRequest, ListPage } from './use-cases/resources.ts';
export { type DisabledReason, disableAfter, type FinishedAttempt, type WebhookHealthRows } from './use-cases/webhook-health.ts';
