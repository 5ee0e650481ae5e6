/**
 * The validation error catalogue: entries of a 422 body exactly as FastAPI with pydantic v2 writes
 * them (`type`, `loc`, `msg`, `input`, and `ctx` where pydantic gives one), so that clients written
 * against that service read our errors unchanged. Messages are pydantic-core's.
 */

export type Loc = (string | number)[];

export interface ValidationIssue {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Python's repr of a literal value inside a message ('asc'). */
function pyRepr(value: string | number | boolean): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}

/** pydantic's list of expected literals: "'a', 'b' or 'c'". */
export function expectedLiterals(values: readonly (string | number | boolean)[]): string {
  const shown = values.map(pyRepr);
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

const issue = (type: string, loc: Loc, msg: string, input: unknown, ctx?: Record<string, unknown>): ValidationIssue =>
  ctx === undefined ? { type, loc, msg, input } : { type, loc, msg, input, ctx };

export const issues = {
  missing: (loc: Loc, input: unknown) => issue('missing', loc, 'Field required', input),
  intType: (loc: Loc, input: unknown) => issue('int_type', loc, 'Input should be a valid integer', input),
  intParsing: (loc: Loc, input: unknown) =>
    issue('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', input),
  intFromFloat: (loc: Loc, input: unknown) =>
    issue('int_from_float', loc, 'Input should be a valid integer, got a number with a fractional part', input),
  floatType: (loc: Loc, input: unknown) => issue('float_type', loc, 'Input should be a valid number', input),
  floatParsing: (loc: Loc, input: unknown) =>
    issue('float_parsing', loc, 'Input should be a valid number, unable to parse string as a number', input),
  finiteNumber: (loc: Loc, input: unknown) => issue('finite_number', loc, 'Input should be a finite number', input),
  boolType: (loc: Loc, input: unknown) => issue('bool_type', loc, 'Input should be a valid boolean', input),
  boolParsing: (loc: Loc, input: unknown) =>
    issue('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input),
  stringType: (loc: Loc, input: unknown) => issue('string_type', loc, 'Input should be a valid string', input),
  stringTooLong: (loc: Loc, input: unknown, maxLength: number) =>
    issue('string_too_long', loc, `String should have at most ${maxLength} characters`, input, { max_length: maxLength }),
  stringTooShort: (loc: Loc, input: unknown, minLength: number) =>
    issue('string_too_short', loc, `String should have at least ${minLength} character${minLength === 1 ? '' : 's'}`, input, {
      min_length: minLength,
    }),
  greaterThan: (loc: Loc, input: unknown, gt: number) => issue('greater_than', loc, `Input should be greater than ${gt}`, input, { gt }),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number) =>
    issue('greater_than_equal', loc, `Input should be greater than or equal to ${ge}`, input, { ge }),
  lessThanEqual: (loc: Loc, input: unknown, le: number) =>
    issue('less_than_equal', loc, `Input should be less than or equal to ${le}`, input, { le }),
  literal: (loc: Loc, input: unknown, expected: readonly (string | number | boolean)[]) => {
    const text = expectedLiterals(expected);
    return issue('literal_error', loc, `Input should be ${text}`, input, { expected: text });
  },
  /** A non-object where a model is expected (FastAPI validates with from_attributes=True). */
  modelAttributesType: (loc: Loc, input: unknown) =>
    issue('model_attributes_type', loc, 'Input should be a valid dictionary or object to extract fields from', input),
  listType: (loc: Loc, input: unknown) => issue('list_type', loc, 'Input should be a valid list', input),
  tooShort: (loc: Loc, input: unknown, minLength: number, actualLength: number) =>
    issue(
      'too_short',
      loc,
      `List should have at least ${minLength} item${minLength === 1 ? '' : 's'} after validation, not ${actualLength}`,
      input,
      { field_type: 'List', min_length: minLength, actual_length: actualLength },
    ),
  tooLong: (loc: Loc, input: unknown, maxLength: number, actualLength: number) =>
    issue(
      'too_long',
      loc,
      `List should have at most ${maxLength} item${maxLength === 1 ? '' : 's'} after validation, not ${actualLength}`,
      input,
      { field_type: 'List', max_length: maxLength, actual_length: actualLength },
    ),
  uuidType: (loc: Loc, input: unknown) => issue('uuid_type', loc, 'UUID input should be a string, bytes or UUID object', input),
  uuidParsing: (loc: Loc, input: unknown, error: string) =>
    issue('uuid_parsing', loc, `Input should be a valid UUID, ${error}`, input, { error }),
  datetimeType: (loc: Loc, input: unknown) => issue('datetime_type', loc, 'Input should be a valid datetime', input),
  datetimeParsing: (loc: Loc, input: unknown, error: string) =>
    issue('datetime_parsing', loc, `Input should be a valid datetime, ${error}`, input, { error }),
  /**
   * A check of our own (unknown filter field, operator the field does not take). FastAPI renders
   * the ValueError in ctx as an empty object, and so do we.
   */
  valueError: (loc: Loc, input: unknown, message: string) => issue('value_error', loc, `Value error, ${message}`, input, { error: {} }),
  jsonInvalid: (position: number, error: string) =>
    issue('json_invalid', ['body', position], 'JSON decode error', {}, { error }),
};
