import { ApiProperty } from '@nestjs/swagger';

/** The call a simulated inbound call recorded (POST /admin/v1/simulator/inbound-calls). */
export class SimulatedInboundCallResponse {
  @ApiProperty({
    format: 'uuid',
    description: "The inbound call, in the number's organization (GET /api/v1/calls/{id} with its key)",
  })
  id: string;
}
