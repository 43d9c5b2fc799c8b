// The refusals of the domain's rules, in the domain's own words: the HTTP layer
// (server/http/domain-errors.ts) turns each kind into its problem, the store only passes them on.
export type DomainError =
  | { kind: 'invalid-transition' | 'policy-in-use'; detail: string }
  | { kind: 'validation'; pointer: string; message: string };
