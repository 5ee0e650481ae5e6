/**
 * Error bodies and the error responses every operation declares in /openapi.json: 401 and 422 on
 * all of them, 404 on those that address one resource (CONTRACT 3, 9), 400 on those that read a body.
 */
import Type from 'typebox';

export const ErrorResponseSchema = Type.Object(
  { detail: Type.String() },
  { $id: 'ErrorResponse', title: 'ErrorResponse', description: 'Every error except 422: `{"detail": "..."}`.' },
);

export const ValidationErrorSchema = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
      description: 'Where: "path", "query" or "body", then the way into the value (["body", "filters", 2, "value"]).',
    }),
    msg: Type.String(),
    type: Type.String({ description: 'pydantic error type: missing, int_parsing, uuid_parsing, literal_error, ...' }),
    input: Type.Optional(Type.Unknown({ description: 'The offending value.' })),
    ctx: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Parameters of the check (ge, le, expected, error).' })),
  },
  { $id: 'ValidationError', title: 'ValidationError' },
);

export const HTTPValidationErrorSchema = Type.Object(
  { detail: Type.Array(Type.Ref('ValidationError')) },
  { $id: 'HTTPValidationError', title: 'HTTPValidationError', description: 'Every problem found in the request.' },
);

const errorResponse = (description: string, example: string) => ({
  description,
  content: { 'application/json': { schema: Type.Ref('ErrorResponse'), example: { detail: example } } },
});

export const UNAUTHORIZED_RESPONSE = errorResponse(
  'No usable API key: "API key is required" (no key), "Invalid API key" (unknown key) or "API key is not active" (deactivated or expired).',
  'Invalid API key',
);

export const VALIDATION_RESPONSE = {
  description: 'Validation error: every problem found in the path, query and body.',
  content: {
    'application/json': {
      schema: Type.Ref('HTTPValidationError'),
      example: {
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'offer_id'],
            msg: 'Input should be a valid UUID, invalid length: expected length 32 for simple format, found 3',
            input: 'abc',
            ctx: { error: 'invalid length: expected length 32 for simple format, found 3' },
          },
        ],
      },
    },
  },
};

export const notFoundResponse = (detail: string) => errorResponse(`Not found (or belongs to another organization): "${detail}".`, detail);

/** A body that cannot be read as JSON at all (not UTF-8, or nested deeper than FastAPI reads): 400, as FastAPI answers. */
export const UNREADABLE_BODY_RESPONSE = errorResponse(
  'The body cannot be read: not UTF-8, or nested too deep. (A body that is not JSON, or JSON of the wrong shape, is a 422.)',
  'There was an error parsing the body',
);

/** The error responses of an /api/v1 operation; `body`: it reads a JSON body (and so can answer 400). */
export function errorResponses(notFoundDetail?: string, options: { body?: boolean } = {}): Record<number, unknown> {
  return {
    ...(options.body ? { 400: UNREADABLE_BODY_RESPONSE } : {}),
    401: UNAUTHORIZED_RESPONSE,
    ...(notFoundDetail ? { 404: notFoundResponse(notFoundDetail) } : {}),
    422: VALIDATION_RESPONSE,
  };
}
