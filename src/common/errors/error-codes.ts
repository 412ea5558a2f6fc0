/** Every error code the API can return (openapi/openapi.yaml per operation, and docs/contracts/errors.md), with its HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_CURSOR: 400,
  UNAUTHORIZED: 401,
  KEY_REVOKED: 401,
  KEY_EXPIRED: 401,
  OUTBOUND_MINUTES_EXHAUSTED: 402,
  INSUFFICIENT_SCOPE: 403,
  OUTBOUND_PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  TEMPLATE_NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_PHONE: 422,
  INVALID_STATE: 422,
  /** Extension (docs/contracts/dialer.md): the number is on the organization's do-not-call ledger. */
  DO_NOT_CALL: 422,
  /** Extension (docs/contracts/destinations.md): the organization's destination rules refuse the number. */
  DESTINATION_NOT_ALLOWED: 422,
  SESSION_EXPIRED: 422,
  /** Extension: the messaging provider refused a template's parameters or the template itself (its code in details). */
  TEMPLATE_INVALID: 422,
  /** Extension: the messaging provider will not deliver to this user (its code in details). */
  MESSAGE_UNDELIVERABLE: 422,
  /** Extension: a media file is larger than this deployment streams. */
  MEDIA_TOO_LARGE: 422,
  MAX_ENDPOINTS: 422,
  /** Extension (like MAX_ENDPOINTS): the organization already has the most assistants (of that kind) it may list. */
  MAX_ASSISTANTS: 422,
  /** Extension (like MAX_ENDPOINTS): the organization already has the most messaging accounts it may list. */
  MAX_MESSAGING_ACCOUNTS: 422,
  /** Extension (like MAX_ENDPOINTS): the organization already has the most phone numbers it may list. */
  MAX_PHONE_NUMBERS: 422,
  /** Extension (like MAX_ENDPOINTS): the organization already has the most contact groups it may list. */
  MAX_CONTACT_GROUPS: 422,
  /** Extension (like MAX_ENDPOINTS): the organization already has the most tools it may list. */
  MAX_TOOLS: 422,
  /** Extension (like MAX_ENDPOINTS): the case already has the most scenarios one case may have. */
  MAX_SCENARIOS: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  MESSAGING_API_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
