import ts from 'typescript';

/** One function of a source file, measured from its first line to its last. */
export interface FunctionLength {
  /** The file, as given to `functionLengths`. */
  readonly file: string;
  /** The function's first line (1-based): its first keyword, name or parameter, comments aside. */
  readonly line: number;
  readonly name: string;
  /** Lines from the first to the last, both counted: a one-line arrow is 1. */
  readonly lines: number;
}

/** The longest a function may be in packages/*\/src and apps/*\/src: short enough to read at once. */
export const MAX_FUNCTION_LINES = 80;

type FunctionWithBody =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction;

function isFunctionWithBody(node: ts.Node): node is FunctionWithBody {
  const isFunction =
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node);
  // An overload or an abstract method has no body: nothing to read.
  return isFunction && node.body !== undefined;
}

/** The name a reader looks for: the function's own, else what holds it, else the call it is passed to. */
function functionName(node: FunctionWithBody, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  // `export default function () {}` and `export default () => ...`.
  if (ts.isFunctionDeclaration(node) || ts.isExportAssignment(parent)) return 'default export';
  if (ts.isCallExpression(parent)) return `(anonymous, passed to ${parent.expression.getText(source)})`;
  return '(anonymous)';
}

/**
 * Every function with a body in a TypeScript source (declarations, expressions, arrows, methods,
 * accessors, constructors), nested ones included: a long callback inside a short function counts.
 */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: first + 1, name: functionName(node, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions over `max` lines, longest first. */
export function tooLong(lengths: readonly FunctionLength[], max = MAX_FUNCTION_LINES): FunctionLength[] {
  return longest(lengths, lengths.length).filter((length) => length.lines > max);
}

/** The `count` longest functions, longest first (ties in file and line order). */
export function longest(lengths: readonly FunctionLength[], count: number): FunctionLength[] {
  const byPlace = (a: FunctionLength, b: FunctionLength) => a.file.localeCompare(b.file) || a.line - b.line;
  return [...lengths].sort((a, b) => b.lines - a.lines || byPlace(a, b)).slice(0, count);
}

/** `packages/x/src/y.ts:12 name (95 lines)`: where to look, and how long it is. */
export function describeLength(length: FunctionLength): string {
  return `${length.file}:${length.line} ${length.name} (${length.lines} lines)`;
}
