import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CampaignAudience } from './campaign.entity';
import { AudienceCandidate } from './audience-preflight';
import { CampaignAudienceDto } from '../audiences/campaign-audience.dto';
import { CAMPAIGN_BOUNDS } from '../audiences/campaign-bounds';
import { contactTimeZone } from './engine/contact-time-zone';
import { World } from '../../common/auth/world';
import { ContactGroupsService } from '../contact-groups/contact-groups.service';
import { DialTarget } from '../contacts/contacts.repository';
import { ContactsService } from '../contacts/contacts.service';

/**
 * Turns a campaign's audience (a contact group, contact ids, or rows) into candidate entries, each with the zone
 * its calling window is evaluated in, its contact and the request field it came from (`audience.groupId[i]` is
 * the group's i-th member, oldest first). Reads contacts of the organization only: another organization's group or
 * contact is 404 like a missing one.
 */
@Injectable()
export class CampaignAudienceResolver {
  constructor(
    private readonly contactsOf: ContactsService,
    private readonly groups: ContactGroupsService,
  ) {}

  async resolve(
    m: EntityManager,
    world: World,
    dto: CampaignAudienceDto,
    defaultZone: string,
  ): Promise<{ audience: CampaignAudience; candidates: AudienceCandidate[] }> {
    const given = [dto.groupId, dto.contactIds, dto.rows].filter((x) => x !== undefined).length;
    if (given !== 1) throw ApiError.validation('audience', 'give exactly one of groupId, contactIds, rows');
    const candidate = (
      source: string,
      to: string,
      contact: DialTarget | undefined,
      variableValues?: Record<string, string>,
    ): AudienceCandidate => ({
      entry: {
        id: uuidv7(),
        to,
        contactId: contact?.id ?? null,
        variableValues: variableValues ?? null,
        timeZone: contactTimeZone(to, contact?.zone, defaultZone),
      },
      contact,
      source,
    });

    if (dto.groupId) {
      const group = await this.groups.existingIds(world.organizationId, [dto.groupId]);
      if (!group.size) throw ApiError.notFound('Contact group');
      const contacts = await this.contactsOf.groupDialTargets(m, world, dto.groupId, CAMPAIGN_BOUNDS.audience + 1);
      if (contacts.length > CAMPAIGN_BOUNDS.audience) {
        throw ApiError.validation('audience.groupId', `the group has more than ${CAMPAIGN_BOUNDS.audience} contacts`);
      }
      if (!contacts.length) throw ApiError.validation('audience.groupId', 'the group has no contacts');
      return {
        audience: { groupId: dto.groupId },
        candidates: contacts.map((c, i) => candidate(`audience.groupId[${i}]`, c.phone, c)),
      };
    }

    if (dto.contactIds) {
      const contacts = await this.contacts(m, world, dto.contactIds);
      return {
        audience: { contactIds: dto.contactIds },
        candidates: dto.contactIds.map((id, i) =>
          candidate(`audience.contactIds[${i}]`, contacts.get(id)!.phone, contacts.get(id)),
        ),
      };
    }

    const rows = dto.rows!;
    const linked = [...new Set(rows.flatMap((r) => (r.contactId ? [r.contactId] : [])))];
    const contacts = await this.contacts(m, world, linked);
    return {
      audience: { rows: rows.length },
      candidates: rows.map((r, i) =>
        candidate(`audience.rows[${i}]`, r.to, r.contactId ? contacts.get(r.contactId) : undefined, r.variableValues),
      ),
    };
  }

  private async contacts(m: EntityManager, world: World, ids: string[]): Promise<Map<string, DialTarget>> {
    if (!ids.length) return new Map();
    const rows = await this.contactsOf.dialTargets(m, world, ids);
    const found = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw ApiError.notFound(`Contact ${missing}`);
    return found;
  }
}
