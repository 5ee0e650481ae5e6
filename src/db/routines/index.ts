/**
 * Every routine: the current definition of each SQL function the service calls, in the order they
 * may call each other. The migrator applies them after the migrations (src/db/migrator.ts).
 */
import { CHANGE_ENTRY_ROUTINE } from './change-entry.js';
import { ORGANIZATION_LEXEME_ROUTINE } from './organization-lexeme.js';
import type { Routine } from './routine.js';
import { SEARCH_FOLDING_ROUTINES } from './search-folding.js';
import { SEARCH_VECTOR_ROUTINE } from './search-vector.js';
import { SLUG_ROUTINE } from './slug.js';
import { TRANSLATION_SEARCH_ROUTINES } from './translation-search.js';
import { WEBSITE_SCOPE_ROUTINES } from './website-scope.js';

export type { Routine } from './routine.js';

export const ROUTINES: readonly Routine[] = [
  ...SEARCH_FOLDING_ROUTINES,
  SEARCH_VECTOR_ROUTINE,
  ORGANIZATION_LEXEME_ROUTINE,
  ...WEBSITE_SCOPE_ROUTINES,
  CHANGE_ENTRY_ROUTINE,
  SLUG_ROUTINE,
  ...TRANSLATION_SEARCH_ROUTINES,
];
