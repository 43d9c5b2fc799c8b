// Faults in how a list reads its query: a value outside its bounds clamped, a made-up cursor read
// as a position, a filter compared without case.
import { answer, jsonAnswer, requestPath } from '../fault-dsl.ts';

/** A limit outside 1 to 100 taken as the nearest one allowed. */
export const limitClamped = requestPath((path, method) =>
  method === 'GET'
    ? path.replace(
        /([?&]limit=)(-?\d+)(?=&|$)/,
        (_all, name: string, value: string) => `${name}${Math.min(100, Math.max(1, Number(value)))}`,
      )
    : path,
);
/** A made-up cursor that decodes to JSON of another shape read as a position: a 500. */
export const madeUpCursorCrashes = answer({ method: 'GET', path: /^\/v1\/policies\?.*cursor=e30(&|$)/ }, () =>
  jsonAnswer(500, { type: 'about:blank', title: 'Internal Server Error', status: 500 }),
);
/** A findings filter compared without case: an allowed value in another case is taken as that value. */
export const filterCaseFolded = requestPath((path, method) =>
  method === 'GET' ? path.replace(/([?&]status=)([^&]*)/, (_all, name: string, value: string) => `${name}${value.toLowerCase()}`) : path,
);
