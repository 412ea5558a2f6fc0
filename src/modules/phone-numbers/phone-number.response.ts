import { ApiProperty } from '@nestjs/swagger';
import { PhoneNumber } from './phone-number.entity';

export class PhoneNumberResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'E.164', example: '+14155550100' }) number: string;
  @ApiProperty({ example: 'Main line' }) label: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(n: PhoneNumber): PhoneNumberResponse {
    return { id: n.id, number: n.number, label: n.label, createdAt: n.createdAt.toISOString() };
  }
}
