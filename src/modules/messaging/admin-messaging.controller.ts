import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { CreateMessagingAccountDto, SetMessagingAccessTokenDto } from './dto/create-messaging-account.dto';
import { CreateMessagingTemplateDto } from './dto/create-messaging-template.dto';
import { SimulateInboundMessageDto } from './dto/simulate-inbound-message.dto';
import { AdminMessagingAccountResponse } from './messaging-account.response';
import { MessagingAccountsService } from './messaging-accounts.service';
import {
  MessagingTemplateResponse,
  SimulatedInboundMessageResponse,
  TemplateSyncResponse,
} from './messaging-template.response';
import { SyncTemplatesCommand } from './sync-templates.command';
import { RecordInboundMessageCommand } from './record-inbound-message.command';

/**
 * The dashboard's messaging routes (README "Admin API"): accounts and their tokens, templates and their sync, and
 * simulated inbound messages. Tagged per route:
 * the simulator belongs with the other simulators in openapi/admin.yaml.
 */
@AdminOnly()
@Controller('admin/v1')
export class AdminMessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly recordInbound: RecordInboundMessageCommand,
    private readonly syncTemplates: SyncTemplatesCommand,
  ) {}

  @Post('organizations/:orgId/messaging-accounts')
  @HttpCode(201)
  @ApiTags('Messaging')
  @ApiOperation({
    operationId: 'adminCreateMessagingAccount',
    summary: 'Record a connected messaging (WhatsApp) account',
    description:
      '409 CONFLICT when `phoneNumberId` is already connected; 422 MAX_MESSAGING_ACCOUNTS at the cap (extension); ' +
      '422 INVALID_STATE when an `accessToken` is given and SECRETS_KEY is not set (it is stored only encrypted).',
  })
  @ApiDataResponse(AdminMessagingAccountResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT', 'MAX_MESSAGING_ACCOUNTS', 'INVALID_STATE')
  async createAccount(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateMessagingAccountDto,
  ): Promise<{ data: AdminMessagingAccountResponse }> {
    return { data: AdminMessagingAccountResponse.forAdmin(await this.accounts.create(orgId, dto)) };
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

  @Post('messaging-accounts/:id/templates/sync')
  @HttpCode(200)
  @ApiTags('Messaging')
  @ApiOperation({
    operationId: 'adminSyncMessagingTemplates',
    summary: "Replace an account's templates with the provider's (WhatsApp: GET /{waba-id}/message_templates)",
    description:
      "Reads every page of the account's templates from WhatsApp (its own `wabaId` and token, or the process-wide " +
      'WHATSAPP_WABA_ID and token; at most 6,000 templates) and replaces the stored bodies, languages and ' +
      'statuses in one transaction; templates WhatsApp no longer lists are removed. A failed read changes nothing ' +
      "(502 MESSAGING_API_ERROR with Meta's code in details). 422 INVALID_STATE without a WhatsApp Business " +
      'Account id, or when the deployment runs the messaging simulator.',
  })
  @ApiDataResponse(TemplateSyncResponse)
  @ApiAdminErrors('INVALID_STATE', 'MESSAGING_API_ERROR')
  async sync(@Param('id', IdParamPipe) id: string): Promise<{ data: TemplateSyncResponse }> {
    return { data: await this.syncTemplates.execute(id) };
  }

  @Put('messaging-accounts/:id/access-token')
  @HttpCode(200)
  @ApiTags('Messaging')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminSetMessagingAccessToken',
    summary: "Rotate (or clear) a messaging account's own provider access token",
    description:
      'The token is stored encrypted with SECRETS_KEY (AES-256-GCM) and never returned; null clears it, and the ' +
      'process-wide WHATSAPP_ACCESS_TOKEN serves the account again. 422 INVALID_STATE when SECRETS_KEY is not set.',
  })
  @ApiDataResponse(AdminMessagingAccountResponse)
  @ApiAdminErrors('INVALID_STATE')
  async setAccessToken(
    @Param('id', IdParamPipe) id: string,
    @Body() dto: SetMessagingAccessTokenDto,
  ): Promise<{ data: AdminMessagingAccountResponse }> {
    return { data: AdminMessagingAccountResponse.forAdmin(await this.accounts.setAccessToken(id, dto.accessToken)) };
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
