import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TOOL_TYPES, ToolType } from '../tool.entity';
import { ToolFieldsDto } from './tool-fields.dto';

export class CreateToolDto extends ToolFieldsDto {
  @ApiProperty({
    enum: TOOL_TYPES,
    description:
      '`function`: called through this service at `url`; `transfer`: forwards the call; `end-call`: hangs up; ' +
      '`platform`: a tool configured on the voice platform. Cannot be changed later',
  })
  @IsIn(TOOL_TYPES)
  type: ToolType;
}
