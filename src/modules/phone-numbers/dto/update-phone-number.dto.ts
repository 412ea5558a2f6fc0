import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, ValidateIf, ValidateNested } from 'class-validator';
import { NumberFallbackDto } from './number-fallback.dto';

/** Extension: what may change on an assigned number (its platform and number stay what they were). */
export class UpdatePhoneNumberDto {
  @ApiProperty({
    type: NumberFallbackDto,
    nullable: true,
    description:
      'Extension: the same number on a second platform, for failover (docs/providers.md, "Failover"); null ' +
      'removes it. Calls already placed are not moved',
  })
  @IsDefined()
  @ValidateIf((dto: UpdatePhoneNumberDto) => dto.fallback !== null)
  @ValidateNested()
  @Type(() => NumberFallbackDto)
  fallback: NumberFallbackDto | null;
}
