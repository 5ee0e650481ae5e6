/**
 * pydantic v2's lax-mode conversions (what FastAPI applies to path, query and JSON body values):
 * "2" is an int, 2.0 is an int, "yes" is a boolean, and so on. Each function returns the converted
 * value or the issue pydantic would report.
 */
import { issues, type Loc, type ValidationIssue } from './issues.js';

export type Lax<T> = { ok: true; value: T } | { ok: false; issue: ValidationIssue };

const ok = <T>(value: T): Lax<T> => ({ ok: true, value });
const fail = (issue: ValidationIssue): Lax<never> => ({ ok: false, issue });

/** Python-style digit groups: "1_000" (an underscore only between digits). */
function stripUnderscores(text: string): string | undefined {
  return /^[+-]?\d+(_\d+)*(\.\d*)?$/.test(text) && text.includes('_') ? text.replace(/_/g, '') : undefined;
}

export function laxInt(value: unknown, loc: Loc): Lax<number> {
  if (typeof value === 'boolean') return ok(value ? 1 : 0);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(issues.finiteNumber(loc, value));
    if (!Number.isInteger(value)) return fail(issues.intFromFloat(loc, value));
    return ok(value);
  }
  if (typeof value === 'string') {
    let text = value.trim();
    text = stripUnderscores(text) ?? text;
    const m = /^([+-]?\d+)(?:\.0*)?$/.exec(text);
    if (m) return ok(Number(m[1]));
    return fail(issues.intParsing(loc, value));
  }
  return fail(issues.intType(loc, value));
}

const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_FLOATS: Record<string, number> = { inf: Infinity, infinity: Infinity, nan: NaN };

export function laxFloat(value: unknown, loc: Loc): Lax<number> {
  if (typeof value === 'boolean') return ok(value ? 1 : 0);
  if (typeof value === 'number') return ok(value);
  if (typeof value === 'string') {
    let text = value.trim();
    text = stripUnderscores(text) ?? text;
    if (FLOAT_TEXT.test(text)) return ok(Number(text));
    const sign = text.startsWith('-') ? -1 : 1;
    const special = SPECIAL_FLOATS[text.replace(/^[+-]/, '').toLowerCase()];
    if (special !== undefined) return ok(sign * special);
    return fail(issues.floatParsing(loc, value));
  }
  return fail(issues.floatType(loc, value));
}

const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

export function laxBool(value: unknown, loc: Loc): Lax<boolean> {
  if (typeof value === 'boolean') return ok(value);
  if (typeof value === 'number') {
    if (value === 0) return ok(false);
    if (value === 1) return ok(true);
    return fail(issues.boolParsing(loc, value));
  }
  if (typeof value === 'string') {
    const word = value.toLowerCase();
    if (TRUE_WORDS.has(word)) return ok(true);
    if (FALSE_WORDS.has(word)) return ok(false);
    return fail(issues.boolParsing(loc, value));
  }
  return fail(issues.boolType(loc, value));
}

export function laxString(value: unknown, loc: Loc): Lax<string> {
  return typeof value === 'string' ? ok(value) : fail(issues.stringType(loc, value));
}

/** A str-valued Literal: the input must be one of the values exactly. */
export function literal<T extends string>(value: unknown, allowed: readonly T[], loc: Loc): Lax<T> {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? ok(value as T)
    : fail(issues.literal(loc, value, allowed));
}
