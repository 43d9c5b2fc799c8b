// The refusals of the domain's rules and use cases, in the domain's own words: the HTTP layer
// (server/http/domain-errors.ts, the MSW handlers) turns each kind into its problem; stores never
// produce them.
export type DomainError =
  | { kind: 'invalid-transition' | 'policy-in-use' | 'not-found' | 'precondition-failed' | 'idempotency-key-reused'; detail: string }
  | { kind: 'validation'; pointer: string; message: string };

/** What a use case comes to: its value, or the refusal that left everything unchanged. */
export type Outcome<T> = { value: T } | { error: DomainError };
