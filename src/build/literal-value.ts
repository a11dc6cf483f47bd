import type * as TS from 'typescript';
import { ts } from './compiler';

/** What {@link literalValue} returns for an expression that is not a JSON literal. */
export const NOT_LITERAL: unique symbol = Symbol('not a literal');

/** The JSON value of a literal default (`= 7`, `= 'c'`, `= ['a']`, `= Priority.High`), or NOT_LITERAL. */
export function literalValue(node: TS.Expression, checker: TS.TypeChecker): unknown {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literalValue(node.expression, checker);
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const member = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression)?.valueDeclaration;
    const value = member !== undefined && ts.isEnumMember(member) ? checker.getConstantValue(member) : undefined;
    return value === undefined ? NOT_LITERAL : value;
  }
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return -Number(node.operand.text);
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) {
    const values = node.elements.map((element) => literalValue(element, checker));
    return values.includes(NOT_LITERAL) ? NOT_LITERAL : values;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) return NOT_LITERAL;
      const value = literalValue(property.initializer, checker);
      if (value === NOT_LITERAL) return NOT_LITERAL;
      out[property.name.text] = value;
    }
    return out;
  }
  return NOT_LITERAL;
}
