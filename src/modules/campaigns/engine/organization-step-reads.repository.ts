import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { toEntities } from '../../../infra/database/entity-rows';
import { OutboundAssistant } from '../../assistants/outbound-assistant.entity';
import { DialerReads } from '../../calls/create-call.command';
import { DestinationRules } from '../../destinations/destination-rules';
import { DestinationRulesRow, destinationRulesOf } from '../../destinations/destination-rules.repository';
import { OrganizationLimit } from '../../limits/organization-limit.entity';
import { Limits, limitsOf } from '../../limits/organization-limits.repository';
import { PhoneNumber } from '../../phone-numbers/phone-number.entity';

/** What a campaign's step reads of its organization to dial. */
export interface OrganizationStepReads extends DialerReads {
  limits: Limits;
  destinationRules: DestinationRules;
}

/**
 * The organization's limits, destination rules, default assistant and the campaign's caller numbers, read in one
 * statement: each was a round trip of its own in the step, the campaign's one serial stage, where every round trip
 * is time taken from every slot (`npm run bench campaign`). The rows are the owning modules' (the same columns
 * their repositories read), mapped by their helpers.
 */
@Injectable()
export class OrganizationStepReadsRepository {
  async read(m: EntityManager, organizationId: string, numbers: readonly string[]): Promise<OrganizationStepReads> {
    const [row]: Array<{
      limits: Record<string, unknown> | null;
      rules: DestinationRulesRow | null;
      default_assistant: Record<string, unknown> | null;
      numbers: Array<Record<string, unknown>>;
    }> = await m.query(
      `SELECT (SELECT row_to_json(l) FROM organization_limits l WHERE l.organization_id = $1) AS limits,
              (SELECT row_to_json(r) FROM (SELECT allowed_countries, blocked_prefixes, allowed_classes
                                             FROM destination_rules WHERE organization_id = $1) r) AS rules,
              (SELECT row_to_json(a) FROM outbound_assistants a
                WHERE a.organization_id = $1 AND a.is_default LIMIT 1) AS default_assistant,
              (SELECT coalesce(json_agg(p), '[]') FROM phone_numbers p
                WHERE p.organization_id = $1 AND p.number = ANY($2)) AS numbers`,
      [organizationId, [...numbers]],
    );
    const [limits] = row.limits ? toEntities(m, OrganizationLimit, [row.limits]) : [null];
    const [defaultAssistant] = row.default_assistant
      ? toEntities(m, OutboundAssistant, [row.default_assistant])
      : [null];
    const owned = new Map(toEntities(m, PhoneNumber, row.numbers).map((n) => [n.number, n]));
    return {
      limits: limitsOf(limits),
      destinationRules: destinationRulesOf(row.rules),
      defaultAssistant,
      numbers: new Map(numbers.map((n) => [n, owned.get(n) ?? null])),
    };
  }
}
