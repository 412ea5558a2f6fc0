import { ApiProperty } from '@nestjs/swagger';
import { TrialStatus } from './entities/trial.entity';

/** An organization's one free trial (POST /admin/v1/organizations/{orgId}/trial). */
export class TrialResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ format: 'date-time', description: 'Unspent trial minutes expire then' }) endsAt: string;
  @ApiProperty({ type: 'integer', example: 60, description: 'Minutes granted (ledger row `trial_activation`)' })
  grantedMins: number;
  @ApiProperty({ enum: ['active', 'converted', 'expired'] }) status: TrialStatus;
}
