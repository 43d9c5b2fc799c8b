// The shape of a catalogue entry of the gate's rules (catalogue.ts, catalogue-schemas.ts).
export interface RuleEntry {
  /** What the change is, in the words of the release note. */
  summary: string;
  oasdiff: readonly string[];
  /** Why we judge it breaking where oasdiff only informs or warns. */
  stricter?: string;
}
