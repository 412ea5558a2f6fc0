import { IsE164 } from '../../../common/validation/is-e164.decorator';

export class SimulateInboundCallDto {
  /** One of an organization's numbers. */
  @IsE164() to: string;
  /** The caller. */
  @IsE164() from: string;
}
