import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination.dto';
import { DELIVERY_EVENTS, DELIVERY_STATUSES, DeliveryStatus } from '../operations/webhook-delivery.response';

export class ListDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, example: 'failed' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: DELIVERY_EVENTS, example: 'call.ended' })
  @IsOptional()
  @IsIn(DELIVERY_EVENTS)
  event?: string;
}
