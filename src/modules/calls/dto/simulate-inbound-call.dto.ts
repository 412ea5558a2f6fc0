import { ApiProperty } from '@nestjs/swagger';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

export class SimulateInboundCallDto {
  @ApiProperty({ example: '+14155550100', description: "The number called, E.164: one of an organization's numbers" })
  @IsE164()
  to: string;
  @ApiProperty({ example: '+14155550187', description: 'The caller, E.164' })
  @IsE164()
  from: string;
}
