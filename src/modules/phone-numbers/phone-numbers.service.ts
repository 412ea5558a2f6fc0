import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { CreatePhoneNumberDto } from './dto/create-phone-number.dto';
import { PhoneNumber } from './phone-number.entity';
import { PhoneNumbersRepository } from './phone-numbers.repository';
import { isUniqueViolation } from '../../infra/database/pg-errors';
import { inTransaction, Tx } from '../../infra/database/tx';
import { VoicePlatformNumbers } from './voice-platform-numbers';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { VoicePlatform, voicePlatformConfigured } from '../../infra/config/platforms';
import type { NumberFallback } from './phone-number.entity';

/**
 * The list is not paginated, so its length is capped (README limits table, OpenAPI). 100 numbers is far beyond
 * a business's lines (every call needs one as caller ID, so even a large call centre rotates a few dozen) while
 * keeping the unpaginated list a few kilobytes.
 */
export const MAX_PHONE_NUMBERS = 100;
const PHONE_NUMBER_CAP: OrganizationCap<PhoneNumber> = {
  entity: PhoneNumber,
  max: MAX_PHONE_NUMBERS,
  lockSpace: 'phoneNumbersCap',
  refusal: () =>
    new ApiError('MAX_PHONE_NUMBERS', `An organization can have at most ${MAX_PHONE_NUMBERS} phone numbers`),
};

@Injectable()
export class PhoneNumbersService {
  constructor(
    private readonly numbers: PhoneNumbersRepository,
    private readonly dataSource: DataSource,
    private readonly platforms: VoicePlatformNumbers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Not paginated (the spec shows `data` only), so capped per organization (MAX_PHONE_NUMBERS). */
  list(organizationId: string): Promise<PhoneNumber[]> {
    return this.numbers.list(organizationId);
  }

  /** The admin API's list: also each number's platform id and fallback. */
  listWithPlatformIds(organizationId: string): Promise<PhoneNumber[]> {
    return this.numbers.listWithPlatformIds(organizationId);
  }

  /** The organization's record for an E.164 number, or null when the number is not theirs. */
  findOwned(organizationId: string, number: string): Promise<PhoneNumber | null> {
    return this.numbers.findByNumber(organizationId, number);
  }

  /** The same read in the caller's transaction (a required `Tx`): never a second connection while it holds one. */
  findOwnedIn(tx: Tx, organizationId: string, number: string): Promise<PhoneNumber | null> {
    return this.numbers.findByNumber(organizationId, number, tx);
  }

  /** The organization's number by its id, or null. */
  findById(organizationId: string, id: string): Promise<PhoneNumber | null> {
    return this.numbers.findOne({ organizationId, id });
  }

  /** Who owns a number (inbound calls arrive addressed to a number, not an organization). */
  findByNumber(number: string): Promise<PhoneNumber | null> {
    return this.numbers.findOne({ number });
  }

  /**
   * Assigns a number on its voice platform (the request's, else the default for new numbers, VOICE_PROVIDER); a
   * platform this service has no credentials for is 422 VALIDATION_ERROR. Without `providerId`, on a platform
   * that keeps numbers (Vapi, Retell), the number is imported: looked up on the platform, pointed at this service, and
   * stored with the platform's id; a number the platform does not have is 422 INVALID_PHONE. Done before the
   * transaction (no connection held across the network).
   */
  async create(organizationId: string, dto: CreatePhoneNumberDto): Promise<PhoneNumber> {
    const platform = dto.platform ?? this.config.voiceProvider;
    if (!voicePlatformConfigured(this.config, platform)) {
      throw ApiError.unprocessable([
        { field: 'platform', message: `the ${platform} platform is not configured on this service` },
      ]);
    }
    this.assertFallback(platform, dto.fallback ?? null);
    // Retell keys numbers by the number itself (docs/providers.md, "Retell"): any other id names nothing there.
    if (platform === 'retell' && dto.providerId !== undefined && dto.providerId !== dto.number) {
      throw ApiError.validation('providerId', 'on the retell platform the providerId is the E.164 number itself');
    }
    const imported = dto.providerId ? undefined : await this.platforms.importNumber(platform, dto.number);
    if (imported === null) {
      throw new ApiError(
        'INVALID_PHONE',
        `The voice platform has no number ${dto.number}: buy or import it there first, or give its providerId`,
      );
    }
    const providerId = dto.providerId ?? imported?.providerId ?? null;
    const telephony = imported?.telephony ?? null;
    try {
      return await inTransaction(this.dataSource, async (m) => {
        await assertBelowCap(m, PHONE_NUMBER_CAP, organizationId);
        const fallback = dto.fallback ? { platform: dto.fallback.platform, providerId: dto.fallback.providerId } : null;
        const values = {
          organizationId,
          number: dto.number,
          label: dto.label ?? '',
          providerId,
          platform,
          fallback,
          telephony,
        };
        return this.numbers.insert(m, values);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('This number is already assigned');
      }
      throw error;
    }
  }

  /** Sets or removes a number's fallback platform (failover); another organization's number is 404. */
  async setFallback(organizationId: string, id: string, fallback: NumberFallback | null): Promise<PhoneNumber> {
    const number = await this.numbers.findOne({ id, organizationId });
    if (!number) throw ApiError.notFound('Phone number');
    this.assertFallback(number.platform, fallback);
    const stored = fallback ? { platform: fallback.platform, providerId: fallback.providerId } : null;
    return (await this.numbers.setFallback(organizationId, id, stored)) ?? number;
  }

  /** A fallback names another platform than the number's own, one this service can reach (else 422). */
  private assertFallback(platform: VoicePlatform, fallback: NumberFallback | null): void {
    if (fallback && (fallback.platform === platform || !voicePlatformConfigured(this.config, fallback.platform))) {
      throw ApiError.unprocessable([
        {
          field: 'fallback.platform',
          message: `the fallback must be another platform than ${platform}, configured on this service`,
        },
      ]);
    }
  }
}
