// The contract's changelog (openapi/CHANGELOG.md) as the gate reads it: a `## <version>` section
// per released version, with `### For clients` and `### For implementations` under it, each a list
// of entries. A new version of the document is not done until its section says what changed.
export interface ChangelogSection {
  version: string;
  /** The entries (list items, continuation lines joined) under each audience's heading. */
  clients: string[];
  implementations: string[];
}

const AUDIENCES = { 'For clients': 'clients', 'For implementations': 'implementations' } as const;

/** Every `## <version>` section of the changelog, in file order. */
export function changelogSections(markdown: string): ChangelogSection[] {
  const sections: ChangelogSection[] = [];
  let audience: 'clients' | 'implementations' | undefined;
  for (const line of markdown.split('\n')) {
    const version = /^## (\d+\.\d+\.\d+)\s*$/.exec(line);
    const heading = /^### (.+?)\s*$/.exec(line);
    const current = sections.at(-1);
    if (version) {
      sections.push({ version: version[1]!, clients: [], implementations: [] });
      audience = undefined;
    } else if (heading) audience = AUDIENCES[heading[1] as keyof typeof AUDIENCES];
    else if (/^#{1,2} /.test(line)) audience = undefined;
    else if (current && audience && line.startsWith('- ')) current[audience].push(line.slice(2));
    else if (current && audience && /^\s+\S/.test(line) && current[audience].length > 0)
      current[audience][current[audience].length - 1] += ` ${line.trim()}`;
  }
  return sections;
}

/** Why the changelog does not yet account for `version`, or undefined when it does. */
export function missingEntry(markdown: string, version: string): string | undefined {
  const section = changelogSections(markdown).find((s) => s.version === version);
  if (!section) return `it has no "## ${version}" section`;
  const empty = (['clients', 'implementations'] as const).filter((audience) => section[audience].length === 0);
  if (empty.length > 0) return `its "## ${version}" section lists nothing under ${empty.map((a) => `"### For ${a}"`).join(' and ')}`;
  return undefined;
}
