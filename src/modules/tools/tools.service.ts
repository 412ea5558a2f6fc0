import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { newSigningSecret } from '../../common/outbound-http/signature';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { assertOutboundUrl } from '../../common/url-safety/assert-outbound-url';
import { OutboundUrlPolicy } from '../../common/url-safety/outbound-url-policy';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { isUniqueViolation } from '../../infra/database/pg-errors';
import { inTransaction, Tx } from '../../infra/database/tx';
import { DestinationPolicyService } from '../destinations/destination-policy.service';
import { CreateToolDto } from './dto/create-tool.dto';
import { ToolFieldsDto } from './dto/tool-fields.dto';
import { UpdateToolDto } from './dto/update-tool.dto';
import { Tool, ToolType, TransferDestination } from './tool.entity';
import { TOOL_LIMITS } from './tool-limits';
import { ToolsRepository } from './tools.repository';

type Field = keyof ToolFieldsDto;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which fields each type requires and which it accepts at all (docs/tools.md, "Tools"). */
const SHAPES: Record<ToolType, { required: Field[]; allowed: Field[] }> = {
  function: {
    required: ['name', 'parameters', 'url'],
    allowed: ['name', 'description', 'parameters', 'url', 'timeoutSeconds', 'messages'],
  },
  transfer: { required: ['name', 'destinations'], allowed: ['name', 'description', 'destinations'] },
  'end-call': { required: ['name'], allowed: ['name', 'description'] },
  platform: { required: ['providerToolId'], allowed: ['name', 'description', 'providerToolId'] },
};
const FIELDS: Field[] = [
  'name',
  'description',
  'parameters',
  'url',
  'timeoutSeconds',
  'messages',
  'destinations',
  'providerToolId',
];

const TOOL_CAP: OrganizationCap<Tool> = {
  entity: Tool,
  max: TOOL_LIMITS.perOrganization,
  lockSpace: 'toolsCap',
  refusal: () => new ApiError('MAX_TOOLS', `An organization can have at most ${TOOL_LIMITS.perOrganization} tools`),
};

/** Tools: organization-wide configuration kept through the admin API, attached to cases, carried by calls. */
@Injectable()
export class ToolsService {
  private readonly urlPolicy: OutboundUrlPolicy;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tools: ToolsRepository,
    private readonly blockers: ReferenceRegistry,
    private readonly destinations: DestinationPolicyService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urlPolicy = OutboundUrlPolicy.fromConfig(config);
  }

  /** Not paginated: an organization has at most TOOL_LIMITS.perOrganization tools. */
  list(organizationId: string): Promise<Tool[]> {
    return this.tools.list(organizationId);
  }

  async get(id: string): Promise<Tool> {
    const found = await this.tools.find(id);
    if (!found) throw ApiError.notFound('Tool');
    return found;
  }

  async create(organizationId: string, dto: CreateToolDto): Promise<{ tool: Tool; secret: string | null }> {
    const fields = this.checked(dto.type, pick(dto));
    if (fields.url) await assertOutboundUrl(fields.url, this.urlPolicy, 'url');
    await this.assertDestinationsAllowed(organizationId, fields.destinations);
    const secret = dto.type === 'function' ? newSigningSecret() : null;
    const tool = await this.unique(() =>
      inTransaction(this.dataSource, async (m) => {
        await assertBelowCap(m, TOOL_CAP, organizationId);
        return this.tools.insert(m, organizationId, dto.type, { ...fields, secret });
      }),
    );
    return { tool, secret };
  }

  /** The fields given replace the stored ones; the whole tool is then checked against its type again. */
  async update(id: string, dto: UpdateToolDto): Promise<Tool> {
    const current = await this.get(id);
    const given = pick(dto);
    const fields = this.checked(current.type, { ...pick(current), ...given });
    if (typeof given.url === 'string') await assertOutboundUrl(given.url, this.urlPolicy, 'url');
    await this.assertDestinationsAllowed(current.organizationId, fields.destinations);
    return this.unique(async () => {
      await this.tools.update(id, fields);
      return this.get(id);
    });
  }

  /** Check and delete in one transaction holding the row `FOR UPDATE`; attaching locks it `FOR SHARE`. */
  async delete(id: string): Promise<void> {
    await inTransaction(this.dataSource, async (m) => {
      const found = await this.tools.lockForDelete(m, id);
      if (!found) throw ApiError.notFound('Tool');
      await this.blockers.assertToolUnused(m, found.organizationId, id);
      await this.tools.delete(m, id);
    });
  }

  /**
   * For attaching tools to a case: every id must be one of the organization's tools (else 400 naming `toolIds`;
   * they are ids in a body, not the path), locked `FOR SHARE` until the attaching transaction ends so a
   * concurrent delete waits and then sees the attachment.
   */
  async lockOwned(tx: Tx, organizationId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    const found = await this.tools.lockShared(tx, organizationId, ids);
    const known = new Set(found.map((t) => t.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) {
      throw ApiError.validation('toolIds', `toolIds: no tool ${missing[0]} in this organization`);
    }
    // The rules may have changed since a transfer tool was saved: a case takes only destinations allowed now.
    const numbers = found.flatMap((t) => (t.destinations ?? []).map((d) => d.number));
    await this.destinations.assertAllowed(
      tx,
      organizationId,
      numbers.map((number) => ({ number, field: 'toolIds' })),
    );
  }

  /** A transfer tool's destinations are saved only where the organization's rules allow calls (422 otherwise). */
  private async assertDestinationsAllowed(organizationId: string, destinations: unknown): Promise<void> {
    const list = (destinations ?? []) as TransferDestination[];
    await this.destinations.assertAllowed(
      this.dataSource.manager,
      organizationId,
      list.map((d, i) => ({ number: d.number, field: `destinations.${i}.number` })),
    );
  }

  /** The tools a call carries, in the case's order, read in the call's creating transaction. */
  async forCall(tx: Tx, organizationId: string, listed: string[]): Promise<Tool[]> {
    // Only ids that can be tools: a case's list is checked when attached, but rows predating that may hold any.
    const ids = listed.filter((id) => UUID.test(id));
    if (!ids.length) return [];
    const found = await this.tools.findOwned(tx, organizationId, ids);
    return ids.map((id) => found.find((t) => t.id === id)).filter((t): t is Tool => t !== undefined);
  }

  /** A function tool's signing secret when it is invoked, or null once the tool is gone. */
  secretOf(id: string): Promise<string | null> {
    return this.tools.findSecret(id);
  }

  /** The stored shape for `type`: a required field missing or a field of another type is a 400 naming it. */
  private checked(type: ToolType, fields: Partial<Record<Field, unknown>>): Partial<Tool> {
    const shape = SHAPES[type];
    for (const field of FIELDS) {
      const set = fields[field] !== undefined && fields[field] !== null;
      if (set && !shape.allowed.includes(field)) {
        throw ApiError.validation(field, `${field} is not a field of a ${type} tool`);
      }
      if (!set && shape.required.includes(field)) {
        throw ApiError.validation(field, `${field} is required for a ${type} tool`);
      }
    }
    const destinations = (fields.destinations ?? []) as TransferDestination[];
    const cold = destinations.findIndex((d) => d.mode === 'cold' && d.handoffMessage !== undefined);
    if (cold >= 0) {
      throw ApiError.validation(
        `destinations.${cold}.handoffMessage`,
        `destinations.${cold}.handoffMessage: only a warm transfer says a message to the person taking the call`,
      );
    }
    const stored: Partial<Tool> = {};
    for (const field of FIELDS) (stored as Record<string, unknown>)[field] = fields[field] ?? null;
    if (type === 'function') stored.timeoutSeconds ??= TOOL_LIMITS.timeoutSeconds.default;
    return stored;
  }

  /** A second tool of the same name in the organization is 409 CONFLICT (the unique index decides). */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw ApiError.conflict('name: the organization already has a tool of this name');
      throw error;
    }
  }
}

/** The tool fields present in `source`, as plain values (nested DTOs become plain objects). */
function pick(source: Partial<Record<Field, unknown>>): Partial<Record<Field, unknown>> {
  const out: Partial<Record<Field, unknown>> = {};
  for (const field of FIELDS) {
    if (source[field] !== undefined) out[field] = plain(source[field]);
  }
  return out;
}

function plain(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
}
