// Versions of the document as `major.minor.patch`, compared numerically (1.10.0 is newer than 1.9.0):
// the breaking-change gate orders the releases by them, the contract kit the versions it can judge.
export type Version = [major: number, minor: number, patch: number];

/** `1.10.0` as [1, 10, 0]; undefined for anything that is not major.minor.patch. */
export function parseVersion(text: string): Version | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Negative when `a` is older than `b`. */
export function compareVersions(a: string, b: string): number {
  const x: Version = parseVersion(a) ?? [0, 0, 0];
  const y: Version = parseVersion(b) ?? [0, 0, 0];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}
