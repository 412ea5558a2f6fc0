import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../../common/auth/access.decorators';
import { ApiError } from '../../../common/errors/api-error';
import { SimulateInboundCallDto } from '../dto/simulate-inbound-call.dto';
import { VoiceSimulator } from '../voice/simulator/voice-simulator';
import { InboundCallsService } from './inbound-calls.service';

/** CONTRACTS §6: the dashboard starts a simulated inbound call (always answered, CONTRACTS §4). */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/simulator')
export class AdminSimulatorController {
  constructor(
    private readonly inbound: InboundCallsService,
    private readonly simulator: VoiceSimulator,
  ) {}

  @Post('inbound-calls')
  @HttpCode(201)
  async inboundCall(@Body() dto: SimulateInboundCallDto): Promise<{ data: { id: string } }> {
    const call = await this.inbound.start({ to: dto.to, from: dto.from, providerCallId: VoiceSimulator.newCallId() });
    if (!call) throw new ApiError('INVALID_PHONE', `to: ${dto.to} is not a phone number of any organization`);
    await this.simulator.answerInbound({ ...call, apiCallId: call.apiCallId! });
    return { data: { id: call.id } };
  }
}
