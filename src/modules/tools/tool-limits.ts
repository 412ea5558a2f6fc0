/** Every bound of a tool (docs/tools.md, "Tools"; the limit itself accepted, one more refused). */
export const TOOL_LIMITS = {
  name: /^[A-Za-z0-9_-]{1,64}$/,
  description: 1000,
  parametersBytes: 16 * 1024,
  timeoutSeconds: { min: 1, max: 30, default: 10 },
  message: 1000,
  destinations: { min: 1, max: 10 },
  providerToolId: 200,
  /** Tools per organization: the list is not paginated. */
  perOrganization: 100,
  /** Tool ids and platform tool ids on one case, each list. */
  perCase: 20,
} as const;
