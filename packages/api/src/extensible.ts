// Types as a reader of what the service sends needs them (the Versioning section): an enum of
// this version is a union of string literals, and within v1 the service may send a value newer
// than it. `Extensible<T>` keeps each union of literals (so editors still complete the known
// values and `switch` still narrows) and admits any other string beside them.
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

type Widen<T> = [T] extends [string] ? (string extends T ? T : true extends IsUnion<T> ? T | (string & {}) : T) : T;

/** `T` with every enum (a union of two or more string literals) open to unknown values, at any depth. */
export type Extensible<T> = T extends string
  ? T
  : T extends readonly (infer Item)[]
    ? Extensible<Item>[]
    : T extends object
      ? {
          [K in keyof T]: T[K] extends string | null | undefined
            ? Widen<Exclude<T[K], null | undefined>> | Extract<T[K], null | undefined>
            : Extensible<T[K]>;
        }
      : T;
