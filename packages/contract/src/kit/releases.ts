// The released versions of the document the kit carries, oldest first: the bundles in
// openapi/releases/, imported so the published kit holds them inside its code. A new release adds
// its line here (packages/contract/test/versions.test.ts fails until it does).
import type { OpenApiDocument } from 'secmon-api/src/document';
import v1_0_0 from '../../../../openapi/releases/v1.0.0.json' with { type: 'json' };
import v1_1_0 from '../../../../openapi/releases/v1.1.0.json' with { type: 'json' };

export const RELEASED_DOCUMENTS: readonly OpenApiDocument[] = [v1_0_0, v1_1_0] as unknown as OpenApiDocument[];
