/**
 * Schemas of the change feed (extension E5): the query string and the page it answers.
 */
import Type from 'typebox';
import { CHANGE_KINDS, CHANGE_OPS, CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT, CURSOR_MAX_LENGTH } from './model.js';

const CURSOR_EXAMPLE = 'YzE6MTAwMjQ';
const NEXT_CURSOR_EXAMPLE = 'YzE6MTAwMjU';

export const ChangesQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      maxLength: CURSOR_MAX_LENGTH,
      description:
        'A cursor from an earlier answer (`next_cursor`, or the `cursor` of the last change you applied): the changes after it. ' +
        'Absent: everything you see now, as upserts, then continue with `next_cursor`.',
      examples: [CURSOR_EXAMPLE],
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: CHANGES_MAX_LIMIT,
      default: CHANGES_DEFAULT_LIMIT,
      description: `Changes per page, 1 to ${CHANGES_MAX_LIMIT} (default ${CHANGES_DEFAULT_LIMIT}).`,
    }),
  ),
});

export const ChangeSchema = Type.Object(
  {
    cursor: Type.String({ description: 'Opaque; the position just after this change. Strictly increasing in feed order.' }),
    kind: Type.Union(CHANGE_KINDS.map((k) => Type.Literal(k))),
    id: Type.String({ format: 'uuid', description: 'The id of the organization, branch, agent, investment or offer.' }),
    op: Type.Union(CHANGE_OPS.map((o) => Type.Literal(o)), {
      description: '`upsert`: fetch it (again) by id. `delete`: you no longer see it (offer deactivated or pruned, out of scope).',
    }),
    version: Type.Integer({
      description:
        'Offers: the offer\'s `version`. Other kinds have no version of their own: a counter of the changes the feed ' +
        'recorded for it (compare `updated_at`).',
    }),
    updated_at: Type.String({ format: 'date-time', description: 'The entity\'s `updated_at`; for a delete, when it stopped being visible.' }),
  },
  { $id: 'Change', title: 'Change' },
);

export const ChangeFeedSchema = Type.Object(
  {
    changes: Type.Array(Type.Ref('Change')),
    next_cursor: Type.String({
      description: 'Where to continue from (`since`), also when `changes` is empty: store it and ask again later.',
    }),
    has_more: Type.Boolean({ description: '`true`: ask again at once with `since=next_cursor`.' }),
  },
  {
    $id: 'ChangeFeed',
    title: 'ChangeFeed',
    examples: [
      {
        changes: [
          {
            cursor: CURSOR_EXAMPLE,
            kind: 'offer',
            id: '3f2b6c1e-8a4d-4c1b-9e2f-5a6b7c8d9e0f',
            op: 'upsert',
            version: 3,
            updated_at: '2026-11-24T09:15:00.123456Z',
          },
          {
            cursor: NEXT_CURSOR_EXAMPLE,
            kind: 'offer',
            id: '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
            op: 'delete',
            version: 5,
            updated_at: '2026-11-24T09:15:00.123456Z',
          },
        ],
        next_cursor: NEXT_CURSOR_EXAMPLE,
        has_more: false,
      },
    ],
  },
);
