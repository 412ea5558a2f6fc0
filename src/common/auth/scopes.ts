/** The API-key scopes of the spec's Authentication table. `*` allows every endpoint. */
export const SCOPES = [
  '*',
  'calls:read',
  'calls:write',
  'contacts:read',
  'contacts:write',
  'contact_groups:read',
  'cases:read',
  'cases:write',
  'assistants:read',
  'assistants:write',
  'phone_numbers:read',
  'messaging:read',
  'messaging:write',
  'usage:read',
  'webhooks:read',
  'webhooks:write',
  'organization:read',
  // Extensions beyond the spec (docs/contracts/modes.md, docs/contracts/dialer.md): the dialer.
  'campaigns:read',
  'campaigns:write',
  'do_not_call:read',
  'do_not_call:write',
  'limits:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function hasScope(granted: readonly string[], required: Scope): boolean {
  return granted.includes('*') || granted.includes(required);
}
