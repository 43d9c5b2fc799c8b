// Preloaded into Prism in --dynamic mode (`node --import`). Prism re-seeds json-schema-faker before
// every response but not faker, which generates the schema fields marked `x-faker` (webhook URLs),
// so those alone would change on every request. Re-seeding faker whenever Prism re-seeds
// json-schema-faker makes the whole response repeatable. packages/mock/test/dynamic.test.ts pins it.
import { createRequire } from 'node:module';

const seedIndex = process.argv.indexOf('--seed');
const seedText = seedIndex >= 0 ? (process.argv[seedIndex + 1] ?? '') : '';
// faker wants a number; any stable hash of the seed text will do.
const seed = [...seedText].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, 7);

// Resolve both packages from Prism's generator so we patch the very instances it uses.
const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js'));
const { JSONSchemaFaker } = prismRequire('json-schema-faker') as { JSONSchemaFaker: { option: (...args: unknown[]) => unknown } };
const { faker } = prismRequire('@faker-js/faker') as { faker: { seed: (value: number) => unknown } };

const setOption = JSONSchemaFaker.option;
JSONSchemaFaker.option = function (this: unknown, ...args: unknown[]) {
  if (args[0] === 'random') faker.seed(seed);
  return setOption.apply(this, args);
};
