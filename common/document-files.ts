// Where the bundled document lies on disk, for the tools that want a file rather than the parsed
// document: Prism, the server's /openapi.{json,yaml} routes, the breaking-change gate. Inside a
// published package the build (scripts/packages.ts) puts both files next to the code instead.
import { fileURLToPath } from 'node:url';

export const bundledJsonPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));
export const bundledYamlPath = fileURLToPath(new URL('../generated/openapi.yaml', import.meta.url));
