import { Foundation1795331202983 } from './1795331202983-Foundation';
import { CoreDomainTables1795332022647 } from './1795332022647-CoreDomainTables';
import { Automations1795332186369 } from './1795332186369-Automations';
import { ContactsSearch1795332194012 } from './1795332194012-ContactsSearch';
import { Webhooks1795332239808 } from './1795332239808-Webhooks';
import { MinuteLedger1795332420025 } from './1795332420025-MinuteLedger';
import { UsageDailyTotals1795333161728 } from './1795333161728-UsageDailyTotals';
import { Messaging1795334038316 } from './1795334038316-Messaging';
import { WebhookOperations1795426088729 } from './1795426088729-WebhookOperations';
import { AdmissionLimits1795426088791 } from './1795426088791-AdmissionLimits';
import { ConsoleSessions1795426328719 } from './1795426328719-ConsoleSessions';
import { DoNotCall1795426352153 } from './1795426352153-DoNotCall';
import { ContactsSearchByOrganization1795426403804 } from './1795426403804-ContactsSearchByOrganization';
import { TestMode1795426980734 } from './1795426980734-TestMode';
import { Campaigns1795427926324 } from './1795427926324-Campaigns';
import { DialerAutomations1795429336312 } from './1795429336312-DialerAutomations';
import { CampaignLivemode1795430000000 } from './1795430000000-CampaignLivemode';
import { WebhookDeliveryLeases1795437199546 } from './1795437199546-WebhookDeliveryLeases';
import { FollowUpMessages1795445220856 } from './1795445220856-FollowUpMessages';
import { OutboxProcessed1795452000000 } from './1795452000000-OutboxProcessed';
import { WebhookClaimSlotFunction1795460000000 } from './1795460000000-WebhookClaimSlotFunction';
import { CallProviderOutcome1795470000000 } from './1795470000000-CallProviderOutcome';
import { Worlds1795470000001 } from './1795470000001-Worlds';
import { ConsoleSessionTokenBinding1795470000002 } from './1795470000002-ConsoleSessionTokenBinding';
import { ChatAgent1795483200000 } from './1795483200000-ChatAgent';
import { WhatsAppProduction1795471000000 } from './1795471000000-WhatsAppProduction';
import { CallsByNumber1795480000000 } from './1795480000000-CallsByNumber';
import { CallOutcomes1795483100000 } from './1795483100000-CallOutcomes';
import { Tools1795500000000 } from './1795500000000-Tools';
import { CallTools1795500000001 } from './1795500000001-CallTools';
import { ReadAfterWriteMarks1795510000000 } from './1795510000000-ReadAfterWriteMarks';
import { OutboxEventPayloads1795520000000 } from './1795520000000-OutboxEventPayloads';
import { WebhookClaimSlotsBatch1795600000010 } from './1795600000010-WebhookClaimSlotsBatch';
import { PlatformPerRow1795700000000 } from './1795700000000-PlatformPerRow';
import { MessagesByMedia1795710000000 } from './1795710000000-MessagesByMedia';
import { BlockedAttempts1795710000001 } from './1795710000001-BlockedAttempts';
import { ChatRepliesByConversation1795710000002 } from './1795710000002-ChatRepliesByConversation';
import { DestinationRules1795720000000 } from './1795720000000-DestinationRules';
import { CallLabels1795730000000 } from './1795730000000-CallLabels';
import { NumberHealth1795730000001 } from './1795730000001-NumberHealth';
import { CampaignCallerIds1795730000002 } from './1795730000002-CampaignCallerIds';
import { CampaignEntrySkipDetail1795740000000 } from './1795740000000-CampaignEntrySkipDetail';
import { NumberHealthBackfill1795740000001 } from './1795740000001-NumberHealthBackfill';
import { RetellAgents1795800000000 } from './1795800000000-RetellAgents';
import { PlatformFailover1795800000001 } from './1795800000001-PlatformFailover';
import { SealedSigningSecrets1795820000000 } from './1795820000000-SealedSigningSecrets';
import { CallsAwaitingReport1795820000001 } from './1795820000001-CallsAwaitingReport';
import { PhoneNumberTelephony1795820000002 } from './1795820000002-PhoneNumberTelephony';
import { CaseVersions1795810000000 } from './1795810000000-CaseVersions';
import { Scenarios1795810000001 } from './1795810000001-Scenarios';
import { CampaignVariants1795810000002 } from './1795810000002-CampaignVariants';
import { MessageContextReferral1795820000003 } from './1795820000003-MessageContextReferral';
import { CallsUnconfirmedPlacement1795840000000 } from './1795840000000-CallsUnconfirmedPlacement';
import { OutboundSendQueue1795850000000 } from './1795850000000-OutboundSendQueue';
import { ScenarioRunsByScenario1795860000000 } from './1795860000000-ScenarioRunsByScenario';
import { ChatAgentPlatform1795870000000 } from './1795870000000-ChatAgentPlatform';
import { MessagePendingSend1795885000000 } from './1795885000000-MessagePendingSend';
import { WebhookClaimSlotsAcrossEndpoints1795900000000 } from './1795900000000-WebhookClaimSlotsAcrossEndpoints';

/**
 * Every migration, in order. Generate with `npm run migration:generate --name=<Name>`, then list the class here;
 * `npm run db:check` fails when the entities and these migrations drift apart.
 */
export const MIGRATIONS: Function[] = [
  Foundation1795331202983,
  CoreDomainTables1795332022647,
  Automations1795332186369,
  ContactsSearch1795332194012,
  Webhooks1795332239808,
  MinuteLedger1795332420025,
  UsageDailyTotals1795333161728,
  Messaging1795334038316,
  WebhookOperations1795426088729,
  AdmissionLimits1795426088791,
  ConsoleSessions1795426328719,
  DoNotCall1795426352153,
  ContactsSearchByOrganization1795426403804,
  TestMode1795426980734,
  Campaigns1795427926324,
  DialerAutomations1795429336312,
  CampaignLivemode1795430000000,
  WebhookDeliveryLeases1795437199546,
  FollowUpMessages1795445220856,
  OutboxProcessed1795452000000,
  WebhookClaimSlotFunction1795460000000,
  CallProviderOutcome1795470000000,
  Worlds1795470000001,
  ConsoleSessionTokenBinding1795470000002,
  WhatsAppProduction1795471000000,
  CallsByNumber1795480000000,
  CallOutcomes1795483100000,
  ChatAgent1795483200000,
  Tools1795500000000,
  CallTools1795500000001,
  ReadAfterWriteMarks1795510000000,
  OutboxEventPayloads1795520000000,
  WebhookClaimSlotsBatch1795600000010,
  PlatformPerRow1795700000000,
  MessagesByMedia1795710000000,
  BlockedAttempts1795710000001,
  ChatRepliesByConversation1795710000002,
  DestinationRules1795720000000,
  CallLabels1795730000000,
  NumberHealth1795730000001,
  CampaignCallerIds1795730000002,
  CampaignEntrySkipDetail1795740000000,
  NumberHealthBackfill1795740000001,
  RetellAgents1795800000000,
  PlatformFailover1795800000001,
  SealedSigningSecrets1795820000000,
  CallsAwaitingReport1795820000001,
  PhoneNumberTelephony1795820000002,
  CaseVersions1795810000000,
  Scenarios1795810000001,
  CampaignVariants1795810000002,
  MessageContextReferral1795820000003,
  CallsUnconfirmedPlacement1795840000000,
  OutboundSendQueue1795850000000,
  ScenarioRunsByScenario1795860000000,
  ChatAgentPlatform1795870000000,
  MessagePendingSend1795885000000,
  WebhookClaimSlotsAcrossEndpoints1795900000000,
];
