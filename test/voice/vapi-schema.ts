import { DeclarationSchema } from '../support/declaration-schema';

/**
 * What the Vapi SDK types wrongly, as Vapi's API document states it: BackoffPlan.type is the string "fixed" or
 * "exponential".
 */
function backoffPlanType(path: string, value: unknown, errors: string[]): boolean {
  if (!/(^|\.)backoffPlan\.type$/.test(path)) return false;
  if (value !== 'fixed' && value !== 'exponential') {
    errors.push(`${path} must be one of the following values: fixed, exponential`);
  }
  return true;
}

/** Vapi's bodies judged by its SDK's declarations (@vapi-ai/server-sdk), with its one correction. */
export class VapiSchema {
  private static instance: DeclarationSchema | null = null;

  /** Read once per test file, from the description the global setup wrote (test/support/sdk-declarations.ts). */
  static get(): DeclarationSchema {
    return (VapiSchema.instance ??= new DeclarationSchema('Vapi', backoffPlanType));
  }
}
