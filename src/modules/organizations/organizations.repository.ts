import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { Organization } from './organization.entity';

/** The SQL of `organizations`. */
@Injectable()
export class OrganizationsRepository {
  constructor(@InjectRepository(Organization) private readonly organizations: Repository<Organization>) {}

  /** Every organization, for keyset pagination (alias `o`). */
  listQuery(): SelectQueryBuilder<Organization> {
    return this.organizations.createQueryBuilder('o');
  }

  /** The organization, or only one that has a profile when `withProfile`. */
  find(id: string, withProfile = false): Promise<Organization | null> {
    return this.organizations.findOneBy(withProfile ? { id, hasProfile: true } : { id });
  }

  insert(dto: CreateOrganizationDto): Promise<Organization> {
    return this.organizations.save(
      this.organizations.create({
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
