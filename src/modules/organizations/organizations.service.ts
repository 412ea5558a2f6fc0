import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { Organization } from './organization.entity';

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectRepository(Organization) private readonly repo: Repository<Organization>,
    private readonly codec: CursorCodec,
  ) {}

  /** Every organization, newest first (the console's organization picker). */
  list(query: PageQueryDto): Promise<Page<Organization>> {
    return keysetPaginate(this.repo.createQueryBuilder('o'), {
      alias: 'o',
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      filters: {},
      map: (org) => org,
    });
  }

  async getProfile(orgId: string): Promise<Organization> {
    const org = await this.repo.findOneBy({ id: orgId, hasProfile: true });
    if (!org) throw ApiError.notFound('Organization profile');
    return org;
  }

  /** Throws NOT_FOUND for an unknown organization; used by the admin API before it attaches anything. */
  async mustExist(orgId: string): Promise<Organization> {
    const org = await this.repo.findOneBy({ id: orgId });
    if (!org) throw ApiError.notFound('Organization');
    return org;
  }

  create(dto: CreateOrganizationDto): Promise<Organization> {
    return this.repo.save(
      this.repo.create({
        id: uuidv7(),
        name: dto.name,
        hasProfile: dto.profile ?? true,
        description: dto.description ?? null,
        contactEmail: dto.contactEmail ?? null,
        contactPhone: dto.contactPhone ?? null,
      }),
    );
  }
}
