import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { Organization } from './organization.entity';
import { OrganizationsRepository } from './organizations.repository';

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly codec: CursorCodec,
  ) {}

  /** Every organization, newest first (the console's organization picker). */
  list(query: PageQueryDto): Promise<Page<Organization>> {
    return keysetPaginate(this.organizations.listQuery(), {
      alias: 'o',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      filters: {},
      map: (org) => org,
    });
  }

  async getProfile(orgId: string): Promise<Organization> {
    const org = await this.organizations.find(orgId, true);
    if (!org) throw ApiError.notFound('Organization profile');
    return org;
  }

  /** Throws NOT_FOUND for an unknown organization; used by the admin API before it attaches anything. */
  async mustExist(orgId: string): Promise<Organization> {
    const org = await this.organizations.find(orgId);
    if (!org) throw ApiError.notFound('Organization');
    return org;
  }

  create(dto: CreateOrganizationDto): Promise<Organization> {
    return this.organizations.insert(dto);
  }
}
