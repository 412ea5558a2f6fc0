import { isDeepStrictEqual } from 'node:util';
import type { Case } from './case.entity';

/**
 * The fields of a case that make up a version: what a call or a scenario run takes from it. A change of any of
 * them makes a new version; a change of the others (title, description, tags, keyterms) does not.
 */
export const VERSIONED_FIELDS = [
  'prompt',
  'systemPromptId',
  'firstMessage',
  'variables',
  'toolIds',
  'integrationToolIds',
  'voicemail',
  'analysis',
] as const satisfies readonly (keyof Case)[];

export type CaseContent = Pick<Case, (typeof VERSIONED_FIELDS)[number]>;

/** A case's versioned content, copied field by field. */
export function contentOf(c: CaseContent): CaseContent {
  return {
    prompt: c.prompt,
    systemPromptId: c.systemPromptId,
    firstMessage: c.firstMessage,
    variables: c.variables,
    toolIds: c.toolIds,
    integrationToolIds: c.integrationToolIds,
    voicemail: c.voicemail ?? null,
    analysis: c.analysis ?? null,
  };
}

/** Whether writing `patch` over `current` changes its versioned content (a value equal to the stored one does not). */
export function changesVersion(current: CaseContent, patch: Partial<Case>): boolean {
  return VERSIONED_FIELDS.some((field) => field in patch && !isDeepStrictEqual(patch[field], current[field]));
}
