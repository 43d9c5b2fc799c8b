// The examples the package tests run: those the package READMEs promise, and the document's own
// event examples.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listMediaTypes, loadDocument } from '../../packages/api/src/document.ts';
import { PACKAGES, type PackageName } from '../../scripts/packages.ts';
import { root } from '../../scripts/pipeline.ts';

export const document = loadDocument();

/** The first fenced block of a language in a package README: the example the README promises. */
export function readmeExample(name: PackageName, language: string): string {
  const readme = readFileSync(join(root, PACKAGES[name].dir, 'README.md'), 'utf8');
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!block) throw new Error(`${name} README has no ${language} example`);
  return block[1]!;
}

/** The first named example of an event type's body in the document. */
export function exampleEvent(type: string): unknown {
  const media = listMediaTypes(document).find((m) => m.schemaPointer.startsWith(`#/webhooks/${type}/`));
  return media!.examples[0]!.value;
}
