import ts from 'typescript';

/** One module a source file names, and the line that names it. */
export interface ImportSite {
  /** As written: `'../verdict/index.js'`, `'vitest'`, `'node:fs'`. */
  readonly specifier: string;
  /** 1-based. */
  readonly line: number;
}

/** The files whose imports the boundary rules read: TypeScript and JavaScript, ES modules or CommonJS. */
export function isCodeFile(path: string): boolean {
  return /\.(c|m)?(t|j)sx?$/.test(path);
}

/** The calls that name a module by a string: `import('x')`, `require('x')`, and vitest's `vi.mock('x')` family. */
const MODULE_CALLS = new Set([
  'require',
  'vi.mock',
  'vi.doMock',
  'vi.unmock',
  'vi.doUnmock',
  'vi.importActual',
  'vi.importMock',
]);

function scriptKind(file: string): ts.ScriptKind {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.(c|m)?jsx?$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** The string literal naming a module in `node`, if `node` is an import, an export from, or a module call. */
function moduleNameOf(node: ts.Node, source: ts.SourceFile): ts.Expression | undefined {
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return node.moduleSpecifier;
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    return node.moduleReference.expression;
  }
  // `import('x').Type` in a type position.
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) return node.argument.literal;
  if (!ts.isCallExpression(node)) return undefined;
  const isNamingCall =
    node.expression.kind === ts.SyntaxKind.ImportKeyword || MODULE_CALLS.has(node.expression.getText(source));
  return isNamingCall ? node.arguments[0] : undefined;
}

/**
 * Every module a source names, in order: `import` (type-only too), `export ... from`,
 * `import x = require()`, `import()` and `require()` with a literal, `import('x')` types, and
 * `vi.mock('x')` (a test that mocks another wing's inner file reaches it as surely as an import).
 * A specifier computed at run time cannot be read, and is not listed.
 */
export function importSpecifiers(file: string, text: string): ImportSite[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: ImportSite[] = [];
  const visit = (node: ts.Node): void => {
    const name = moduleNameOf(node, source);
    if (name !== undefined && ts.isStringLiteralLike(name)) {
      const line = source.getLineAndCharacterOfPosition(name.getStart(source)).line + 1;
      found.push({ specifier: name.text, line });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
