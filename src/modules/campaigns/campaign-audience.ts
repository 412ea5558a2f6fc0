import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CampaignAudience } from './campaign.entity';
import { NewEntry } from './campaign-entries.repository';
import { CampaignAudienceDto } from '../audiences/campaign-audience.dto';
import { CAMPAIGN_BOUNDS } from '../audiences/campaign-bounds';
import { contactTimeZone } from './engine/contact-time-zone';
import { World, worldParams, worldSql } from '../../common/auth/world';

interface ContactRow {
  id: string;
  phone: string;
  zone: unknown;
}

/**
 * Turns a campaign's audience (a contact group, contact ids, or rows) into entries, each with the zone its
 * calling window is evaluated in. Reads contacts of the organization only: another organization's group or
 * contact is 404 like a missing one.
 */
@Injectable()
export class CampaignAudienceResolver {
  async resolve(
    m: EntityManager,
    world: World,
    dto: CampaignAudienceDto,
    defaultZone: string,
  ): Promise<{ audience: CampaignAudience; entries: NewEntry[] }> {
    const { organizationId, livemode } = world;
    const given = [dto.groupId, dto.contactIds, dto.rows].filter((x) => x !== undefined).length;
    if (given !== 1) throw ApiError.validation('audience', 'give exactly one of groupId, contactIds, rows');
    const entry = (to: string, contact: ContactRow | undefined, variableValues?: Record<string, string>) => ({
      id: uuidv7(),
      to,
      contactId: contact?.id ?? null,
      variableValues: variableValues ?? null,
      timeZone: contactTimeZone(to, contact?.zone, defaultZone),
    });

    if (dto.groupId) {
      const group: unknown[] = await m.query(`SELECT 1 FROM contact_groups WHERE id = $1 AND organization_id = $2`, [
        dto.groupId,
        organizationId,
      ]);
      if (!group.length) throw ApiError.notFound('Contact group');
      const contacts: ContactRow[] = await m.query(
        `SELECT c.id, c.phone, COALESCE(c.custom_fields->'timeZone', c.custom_fields->'timezone') #>> '{}' AS zone
           FROM contacts c JOIN contact_group_members g ON g.contact_id = c.id
          WHERE g.group_id = $1 AND c.organization_id = $2 AND c.livemode = $4
          ORDER BY c.created_at, c.id LIMIT $3`,
        [dto.groupId, organizationId, CAMPAIGN_BOUNDS.audience + 1, livemode],
      );
      if (contacts.length > CAMPAIGN_BOUNDS.audience) {
        throw ApiError.validation('audience.groupId', `the group has more than ${CAMPAIGN_BOUNDS.audience} contacts`);
      }
      if (!contacts.length) throw ApiError.validation('audience.groupId', 'the group has no contacts');
      return { audience: { groupId: dto.groupId }, entries: contacts.map((c) => entry(c.phone, c)) };
    }

    if (dto.contactIds) {
      const contacts = await this.contacts(m, world, dto.contactIds);
      return {
        audience: { contactIds: dto.contactIds },
        entries: dto.contactIds.map((id) => entry(contacts.get(id)!.phone, contacts.get(id))),
      };
    }

    const rows = dto.rows!;
    const linked = [...new Set(rows.flatMap((r) => (r.contactId ? [r.contactId] : [])))];
    const contacts = await this.contacts(m, world, linked);
    return {
      audience: { rows: rows.length },
      entries: rows.map((r) => entry(r.to, r.contactId ? contacts.get(r.contactId) : undefined, r.variableValues)),
    };
  }

  private async contacts(m: EntityManager, world: World, ids: string[]): Promise<Map<string, ContactRow>> {
    if (!ids.length) return new Map();
    const rows: ContactRow[] = await m.query(
      `SELECT id, phone, COALESCE(custom_fields->'timeZone', custom_fields->'timezone') #>> '{}' AS zone
         FROM contacts WHERE id = ANY($1) AND ${worldSql(undefined, 2)}`,
      [ids, ...worldParams(world)],
    );
    const found = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw ApiError.notFound(`Contact ${missing}`);
    return found;
  }
}
