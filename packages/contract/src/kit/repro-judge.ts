// What a replay must see to say the fault is still there: the symptom the kit judged in the failing
// answer, reduced to what a correct answer cannot show (a required field absent, a page longer
// than the limit asked, the same status and fields as the faulty answer), and the same test as
// code for a shell script (run by node) and for an .http file's response handler (httpyac, JetBrains).
import type { Exchange } from './http.ts';
import type { Violation } from './violation.ts';

export interface Symptom {
  /** The status the faulty answer had. */
  status: number;
  /** A field the schema requires that the answer lacked: the object's JSON pointer and the field. */
  missing?: { at: string; name: string };
  /** The `limit` the request asked for, which the answer's `data` exceeded. */
  overLimit?: number;
  /** The faulty answer's top-level fields, when nothing narrower names the fault. */
  keys?: string[];
}

/** The symptom of `violation` in the answer it judged (the last of its exchanges). */
export function symptomOf(violation: Violation, judged: Exchange): Symptom {
  const status = judged.status;
  const missing = missingField(violation);
  if (missing) return { status, missing };
  const limit = new URL(judged.request.url).searchParams.get('limit');
  const data = (judged.json as { data?: unknown } | undefined)?.data;
  if (violation.subject?.what === 'limit' && limit && Array.isArray(data) && data.length > Number(limit))
    return { status, overLimit: Number(limit) };
  const json = judged.json;
  const keys = json && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json).sort() : undefined;
  return keys ? { status, keys } : { status };
}

/** A field the schema requires that the judged body lacked: the object's JSON pointer and the field. */
export function missingField(violation: Violation): { at: string; name: string } | undefined {
  const found = violation.observed
    .split('\n')
    .map((line) => /^(\/\S*) must have required property '([^']+)'/.exec(line))
    .find(Boolean);
  return found ? { at: found[1] === '/' ? '' : found[1]!, name: found[2]! } : undefined;
}

/** A JavaScript expression for the value at JSON `pointer` in `body` (undefined where the path ends). */
export function pointerExpression(pointer: string): string {
  return `${JSON.stringify(pointer)}.split("/").slice(1).reduce((node, key) => node == null ? node : node[key.replace(/~1/g, "/").replace(/~0/g, "~")], body)`;
}

/**
 * A JavaScript function body over `status` and `body` (the parsed answer, or undefined) that
 * returns whether the symptom is there; the same text runs under node and in an httpyac handler.
 */
export function symptomTest(symptom: Symptom): string {
  const at = pointerExpression;
  const conditions = [`status === ${symptom.status}`];
  if (symptom.missing) {
    const object = at(symptom.missing.at);
    conditions.push(`${object} != null`, `!(${JSON.stringify(symptom.missing.name)} in ${object})`);
  }
  if (symptom.overLimit !== undefined) conditions.push(`Array.isArray(body && body.data)`, `body.data.length > ${symptom.overLimit}`);
  if (symptom.keys)
    conditions.push(`body != null`, `JSON.stringify(Object.keys(body).sort()) === ${JSON.stringify(JSON.stringify(symptom.keys))}`);
  return `return ${conditions.join(' && ')};`;
}

/** The shell script's closing lines: judge the last step's answer, say so, exit 1 when the fault is there. */
export function shellJudge(step: number, symptom: Symptom, headline: string): string {
  const program = `const fs = require("fs");
const head = fs.existsSync(process.argv[1]) ? fs.readFileSync(process.argv[1], "utf8") : "";
const status = Number((/^HTTP\\/[\\d.]+ (\\d{3})/m.exec(head) || [])[1]);
let body; try { body = JSON.parse(fs.readFileSync(process.argv[2], "utf8")); } catch {}
const seen = (function (status, body) { ${symptomTest(symptom)} })(status, body);
console.log(seen ? "reproduced: " + process.argv[3] : "not reproduced");
process.exit(seen ? 1 : 0);`;
  return `\n# The verdict: the last answer against what the kit expected.\nnode -e '${program.replaceAll("'", `'\\''`)}' "$out/${step}.head" "$out/${step}.body" '${headline.replaceAll("'", `'\\''`)}'`;
}

/** The .http file's last response handler: a test that fails (httpyac exits non-zero) when the fault is there. */
export function httpJudge(symptom: Symptom, headline: string): string {
  return [
    '> {%',
    `  const seen = (function (status, body) { ${symptomTest(symptom)} })(response.status, response.body);`,
    `  console.info(seen ? ${JSON.stringify(`reproduced: ${headline}`)} : "not reproduced");`,
    `  client.test("the fault is not there", () => client.assert(!seen, ${JSON.stringify(`reproduced: ${headline}`)}));`,
    '%}',
  ].join('\n');
}
