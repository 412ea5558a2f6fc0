import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreateMessagingAccountDto } from './dto/create-messaging-account.dto';
import { CreateMessagingTemplateDto } from './dto/create-messaging-template.dto';
import { SimulateInboundMessageDto } from './dto/simulate-inbound-message.dto';
import { MessagingAccountResponse } from './messaging-account.response';
import { MessagingAccountsService } from './messaging-accounts.service';
import { MessagingTemplateResponse, SimulatedInboundMessageResponse } from './messaging-template.response';
import { RecordInboundMessageCommand } from './record-inbound-message.command';

/**
 * CONTRACTS §6: messaging accounts, templates and simulated inbound messages, for the dashboard. Tagged per route:
 * the simulator belongs with the other simulators in openapi/admin.yaml.
 */
@AdminOnly()
@Controller('admin/v1')
export class AdminMessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly recordInbound: RecordInboundMessageCommand,
  ) {}

  @Post('organizations/:orgId/messaging-accounts')
  @HttpCode(201)
  @ApiTags('Messaging')
  @ApiOperation({
    operationId: 'adminCreateMessagingAccount',
    summary: 'Record a connected messaging (WhatsApp) account',
    description:
      '409 CONFLICT when `phoneNumberId` is already connected; 422 MAX_MESSAGING_ACCOUNTS at the cap (extension).',
  })
  @ApiDataResponse(MessagingAccountResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT', 'MAX_MESSAGING_ACCOUNTS')
  async createAccount(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateMessagingAccountDto,
  ): Promise<{ data: MessagingAccountResponse }> {
    return { data: MessagingAccountResponse.from(await this.accounts.create(orgId, dto)) };
  }

  @Post('messaging-accounts/:id/templates')
  @HttpCode(201)
  @ApiTags('Messaging')
  @ApiOperation({
    operationId: 'adminCreateMessagingTemplate',
    summary: 'Record a message template of an account (of any organization)',
    description:
      '404 for an unknown account; 409 CONFLICT when the account already has a template of that name and language.',
  })
  @ApiDataResponse(MessagingTemplateResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT')
  async createTemplate(
    @Param('id', IdParamPipe) id: string,
    @Body() dto: CreateMessagingTemplateDto,
  ): Promise<{ data: MessagingTemplateResponse }> {
    return { data: MessagingTemplateResponse.from(await this.accounts.createTemplate(id, dto)) };
  }

  @Post('simulator/inbound-messages')
  @HttpCode(201)
  @ApiTags('Simulators')
  @ApiOperation({
    operationId: 'adminSimulateInboundMessage',
    summary: "A user's text message arrives at an account, as the provider's webhook would bring it",
    description:
      'Opens or joins the conversation with `from` (creating the contact when none has that phone), opens the ' +
      "24-hour window and counts towards the account's received messages; an opt-out text lists the number as " +
      'do-not-call. Repeating a `messageId` changes nothing (`duplicate: true`). 404 for an unknown account.',
  })
  @ApiDataResponse(SimulatedInboundMessageResponse, { status: 201 })
  @ApiAdminErrors()
  async simulateInbound(@Body() dto: SimulateInboundMessageDto): Promise<{ data: SimulatedInboundMessageResponse }> {
    const account = await this.accounts.mustExist(dto.accountId);
    const result = await this.recordInbound.execute({
      account,
      from: dto.from,
      name: dto.name,
      providerMessageId: dto.messageId ?? `sim.in.${uuidv7()}`,
      messageType: 'text',
      text: dto.text,
      timestamp: dto.timestamp ? new Date(dto.timestamp) : new Date(),
    });
    return { data: { id: result.messageId, ...result } };
  }
}
