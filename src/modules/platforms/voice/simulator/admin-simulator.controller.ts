import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../../../common/auth/access.decorators';
import { ApiError } from '../../../../common/errors/api-error';
import { ApiDataResponse } from '../../../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../../../common/openapi/api-errors.decorator';
import { SimulateInboundCallDto } from '../../../calls/dto/simulate-inbound-call.dto';
import { VoiceSimulatorProvider } from './voice-simulator.provider';
import { VoiceIngress } from '../../../calls/voice/voice-ingress';
import { SimulatedInboundCallResponse } from '../../../calls/inbound/simulated-inbound-call.response';

/** docs/contracts/admin-api.md: the dashboard starts a simulated inbound call (always answered, docs/contracts/simulator.md). */
@ApiTags('Simulators')
@AdminOnly()
@Controller('admin/v1/simulator')
export class AdminSimulatorController {
  constructor(
    private readonly ingress: VoiceIngress,
    private readonly simulator: VoiceSimulatorProvider,
  ) {}

  @Post('inbound-calls')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminSimulateInboundCall',
    summary: "A simulated caller dials one of an organization's numbers",
    description:
      "The voice simulator answers with the organization's inbound assistant whatever `VOICE_PROVIDER` says " +
      "(always answered, docs/contracts/simulator.md). 422 INVALID_PHONE when `to` is no organization's number.",
  })
  @ApiDataResponse(SimulatedInboundCallResponse, { status: 201 })
  @ApiAdminErrors('INVALID_PHONE')
  async inboundCall(@Body() dto: SimulateInboundCallDto): Promise<{ data: SimulatedInboundCallResponse }> {
    const call = await this.ingress.startInbound({
      to: dto.to,
      from: dto.from,
      providerCallId: VoiceSimulatorProvider.newCallId(),
      platform: 'simulator',
    });
    if (!call) throw new ApiError('INVALID_PHONE', `to: ${dto.to} is not a phone number of any organization`);
    await this.simulator.answerInbound({ ...call, apiCallId: call.apiCallId! });
    return { data: { id: call.id } };
  }
}
