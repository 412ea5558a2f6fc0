import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { DestinationRulesRepository } from './destination-rules.repository';
import { DestinationVerdict, evaluateDestination, refusalMessage } from './destination-rules';

export type DestinationRefusal = Exclude<DestinationVerdict, { allowed: true }>;

/** A number to check and the request field it came from (named in the refusal). */
export interface DestinationToCheck {
  number: string;
  field: string;
}

/** The endedReason of a queued call whose destination the rules refuse at dispatch (docs/contracts/destinations.md). */
export const DESTINATION_NOT_ALLOWED_REASON = 'destination-not-allowed';

/**
 * Applies an organization's destination rules (docs/contracts/destinations.md) wherever a number is about to
 * be called or saved as a place to call: the rules are read once per check, each number judged by the pure
 * `evaluateDestination`. The same rules for the test and the live world.
 */
@Injectable()
export class DestinationPolicyService {
  constructor(private readonly rules: DestinationRulesRepository) {}

  /** The numbers among `numbers` the organization's rules refuse, each with its verdict. */
  async refused(m: EntityManager, organizationId: string, numbers: string[]): Promise<Map<string, DestinationRefusal>> {
    const refused = new Map<string, DestinationRefusal>();
    if (!numbers.length) return refused;
    const rules = await this.rules.find(organizationId, m);
    for (const number of new Set(numbers)) {
      const verdict = evaluateDestination(number, rules);
      if (!verdict.allowed) refused.set(number, verdict);
    }
    return refused;
  }

  /** The numbers among `numbers` the organization's rules refuse, each with the sentence saying which rule did. */
  async refusalMessages(m: EntityManager, organizationId: string, numbers: string[]): Promise<Map<string, string>> {
    const refused = await this.refused(m, organizationId, numbers);
    return new Map([...refused].map(([number, verdict]) => [number, refusalMessage(number, verdict)]));
  }

  /** 422 DESTINATION_NOT_ALLOWED naming the first refused number's field, when the rules refuse any. */
  async assertAllowed(m: EntityManager, organizationId: string, checks: DestinationToCheck[]): Promise<void> {
    const refused = await this.refused(
      m,
      organizationId,
      checks.map((c) => c.number),
    );
    const first = checks.find((c) => refused.has(c.number));
    if (!first) return;
    const message = refusalMessage(first.number, refused.get(first.number)!);
    throw new ApiError('DESTINATION_NOT_ALLOWED', `${first.field}: ${message}`, [{ field: first.field, message }]);
  }
}
