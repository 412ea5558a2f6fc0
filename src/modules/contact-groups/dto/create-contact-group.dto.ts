import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CreateContactGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'VIP patients' })
  @IsString()
  @Length(1, 200)
  name: string;
}
