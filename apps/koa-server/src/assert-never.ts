/**
 * The `default` of an exhaustive `switch`: a compile error when a case is missing (the value is
 * then not `never`), a throw if a value the types rule out arrives anyway. The value is not quoted:
 * it may hold a licence key.
 */
export function assertNever(_value: never): never {
  throw new Error('unreachable: a value outside its type reached an exhaustive switch');
}
