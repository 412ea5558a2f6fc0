import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { CreatePhoneNumberDto } from './dto/create-phone-number.dto';
import { PhoneNumber } from './phone-number.entity';
import { isUniqueViolation } from '../../infra/database/pg-errors';

@Injectable()
export class PhoneNumbersService {
  constructor(@InjectRepository(PhoneNumber) private readonly repo: Repository<PhoneNumber>) {}

  list(organizationId: string): Promise<PhoneNumber[]> {
    return this.repo.find({ where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The organization's record for an E.164 number, or null when the number is not theirs. */
  findOwned(organizationId: string, number: string): Promise<PhoneNumber | null> {
    return this.repo.findOneBy({ organizationId, number });
  }

  /** Who owns a number (inbound calls arrive addressed to a number, not an organization). */
  findByNumber(number: string): Promise<PhoneNumber | null> {
    return this.repo.findOneBy({ number });
  }

  async create(organizationId: string, dto: CreatePhoneNumberDto): Promise<PhoneNumber> {
    try {
      return await this.repo.save(
        this.repo.create({
          id: uuidv7(),
          organizationId,
          number: dto.number,
          label: dto.label ?? '',
          providerId: dto.providerId ?? null,
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('This number is already assigned');
      }
      throw error;
    }
  }
}
