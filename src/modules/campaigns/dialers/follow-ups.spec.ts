import { Logger } from '@nestjs/common';
import type { World } from '../../../common/auth/world';
import { ApiError } from '../../../common/errors/api-error';
import { FakeDataSource } from '../../../infra/testing/fake-data-source';
import { fakeOf } from '../../../infra/testing/fake-of';
import type { FollowUpCampaign } from '../../automations/follow-up-campaign.entity';
import { FollowUpCampaignsRepository } from '../../automations/follow-up-campaigns.repository';
import { FollowUpMessageOutcome, FollowUpMessagesRepository } from '../../automations/follow-up-messages.repository';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import type { Conversation } from '../../messaging/conversation.entity';
import { ConversationsService } from '../../messaging/conversations.service';
import type { SendMessageDto } from '../../messaging/dto/send-message.dto';
import { SendMessageCommand } from '../../messaging/send-message.command';
import type { FinishedCallPayload } from '../../outbox/event-payloads';
import type { Campaign } from '../campaign.entity';
import { CampaignsRepository } from '../campaigns.repository';
import { CampaignOrigin, CreateCampaignCommand } from '../create-campaign.command';
import type { CreateCampaignDto } from '../dto/create-campaign.dto';
import { FollowUpMessenger } from './follow-up-messenger';
import { FollowUpRunner } from './follow-up-runner';

const live: World = { organizationId: 'org-1', livemode: true };

const followUp = (fields: Partial<FollowUpCampaign> = {}): FollowUpCampaign =>
  ({
    id: 'follow-up-1',
    organizationId: 'org-1',
    caseId: 'case-2',
    assistantConfigId: null,
    delaySeconds: 3600,
    triggerOn: ['customer-did-not-answer'],
    triggerCaseId: null,
    callFrom: '+14155550100',
    messageTemplateName: null,
    messageTemplateLanguage: null,
    messageVariables: null,
    ...fields,
  }) as FollowUpCampaign;

const endedCall = (fields: Partial<FinishedCallPayload> = {}): FinishedCallPayload => ({
  callId: 'call-1',
  direction: 'outbound',
  callTo: '+14155550123',
  contactId: 'contact-1',
  caseId: 'case-1',
  campaignId: null,
  endedReason: 'customer-did-not-answer',
  endedAt: '2026-03-04T12:00:00.000Z',
  ...fields,
});

describe('follow-ups', () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('FollowUpRunner', () => {
    let triggered: FollowUpCampaign[];
    let asked: Array<[string, string, string | null]>;
    let sourceTypes: Map<string, string>;
    let created: Array<{ dto: CreateCampaignDto; origin: CampaignOrigin }>;
    let createFails: Error | null;
    let messaged: Array<[World, string, string]>;
    let tried: string[];

    beforeEach(() => {
      tried = [];
      triggered = [followUp()];
      asked = [];
      sourceTypes = new Map();
      created = [];
      createFails = null;
      messaged = [];
    });

    const runner = () =>
      new FollowUpRunner(
        fakeOf<FollowUpCampaignsRepository>({
          triggeredBy: (org, reason, caseId) => {
            asked.push([org, reason, caseId]);
            return Promise.resolve(triggered);
          },
        }),
        fakeOf<CampaignsRepository>({ sourceTypeOf: (id) => Promise.resolve(sourceTypes.get(id) ?? null) }),
        fakeOf<CreateCampaignCommand>({
          execute: (_org, dto, origin) => {
            tried.push(origin.source!.id);
            if (createFails && origin.source!.id === 'a') return Promise.reject(createFails);
            created.push({ dto, origin });
            return Promise.resolve({ id: 'campaign-1' } as Campaign);
          },
        }),
        fakeOf<FollowUpMessenger>({
          onCallFinished: (world, f, call) => {
            messaged.push([world, f.id, call.callId]);
            return Promise.resolve();
          },
        }),
      );

    it("places one more call to the number after the delay, keyed by (follow-up, call), with the follow-up's case", async () => {
      await runner().onCallFinished(live, endedCall());
      expect(asked).toEqual([['org-1', 'customer-did-not-answer', 'case-1']]);
      expect(created).toEqual([
        {
          dto: {
            name: 'Follow-up follow-up-1 of call call-1',
            from: '+14155550100',
            caseId: 'case-2',
            assistantConfigId: undefined,
            audience: { rows: [{ to: '+14155550123', contactId: 'contact-1' }] },
            startAt: '2026-03-04T13:00:00.000Z',
          },
          origin: { livemode: true, source: { type: 'follow_up', id: 'follow-up-1', key: 'call-1' } },
        },
      ]);
      expect(messaged).toEqual([]);
    });

    it("calls with the follow-up's assistant when it names no case, to a number with no contact", async () => {
      triggered = [followUp({ caseId: null, assistantConfigId: 'assistant-1' })];
      await runner().onCallFinished(live, endedCall({ contactId: null }));
      expect(created[0].dto).toMatchObject({
        caseId: undefined,
        assistantConfigId: 'assistant-1',
        audience: { rows: [{ to: '+14155550123', contactId: undefined }] },
      });
    });

    it("follows a test call up with a test campaign (the event's world)", async () => {
      await runner().onCallFinished({ organizationId: 'org-1', livemode: false }, endedCall());
      expect(created[0].origin.livemode).toBe(false);
    });

    it('triggers nothing on an inbound call, a call without an ended reason, or a follow-up of its own', async () => {
      sourceTypes.set('campaign-f', 'follow_up');
      await runner().onCallFinished(live, endedCall({ direction: 'inbound' }));
      await runner().onCallFinished(live, endedCall({ endedReason: null }));
      await runner().onCallFinished(live, endedCall({ campaignId: 'campaign-f' }));
      expect([asked, created]).toEqual([[], []]);
    });

    it('follows up a call of an ordinary campaign', async () => {
      sourceTypes.set('campaign-r', 'recurring_schedule');
      await runner().onCallFinished(live, endedCall({ campaignId: 'campaign-r' }));
      expect(created).toHaveLength(1);
    });

    it('sends the message of a follow-up that has one, and calls only when it also has a delay and a number', async () => {
      triggered = [
        followUp({ id: 'message-only', messageTemplateName: 'hello', delaySeconds: null }),
        followUp({ id: 'no-number', callFrom: null }),
        followUp({ id: 'both', messageTemplateName: 'hello' }),
      ];
      await runner().onCallFinished(live, endedCall());
      expect(messaged.map(([, id]) => id)).toEqual(['message-only', 'both']);
      expect(created.map((c) => c.origin.source!.id)).toEqual(['both']);
    });

    it('logs a follow-up it cannot place and goes on with the next', async () => {
      triggered = [followUp({ id: 'a' }), followUp({ id: 'b' })];
      createFails = new ApiError('NOT_FOUND', 'case not found');
      await expect(runner().onCallFinished(live, endedCall())).resolves.toBeUndefined();
      expect(tried).toEqual(['a', 'b']);
      expect(created.map((c) => c.origin.source!.id)).toEqual(['b']);
    });
  });

  describe('FollowUpMessenger', () => {
    let claims: Set<string>;
    let outcomes: Array<[string, string, FollowUpMessageOutcome]>;
    let listed: string[];
    let conversation: Conversation | null;
    let sendFails: Error | null;
    let sent: SendMessageDto[];

    beforeEach(() => {
      claims = new Set();
      outcomes = [];
      listed = [];
      conversation = { id: 'conversation-1' } as Conversation;
      sendFails = null;
      sent = [];
    });

    const messenger = () =>
      new FollowUpMessenger(
        new FakeDataSource().asDataSource(),
        fakeOf<FollowUpMessagesRepository>({
          claim: (_org, followUpId, callId) => {
            const key = `${followUpId} ${callId}`;
            if (claims.has(key)) return Promise.resolve(false);
            claims.add(key);
            return Promise.resolve(true);
          },
          settle: (followUpId, callId, outcome) => {
            outcomes.push([followUpId, callId, outcome]);
            return Promise.resolve();
          },
        }),
        fakeOf<ConversationsService>({ latestWith: () => Promise.resolve(conversation) }),
        fakeOf<SendMessageCommand>({
          execute: (_world, dto) => {
            if (sendFails) return Promise.reject(sendFails);
            sent.push(dto);
            return Promise.resolve({ messageId: 'message-9' } as Awaited<ReturnType<SendMessageCommand['execute']>>);
          },
        }),
        fakeOf<DoNotCallService>({
          listedAmong: (_m, _w, numbers) => Promise.resolve(new Set(numbers.filter((n) => listed.includes(n)))),
        }),
      );

    const withTemplate = followUp({
      messageTemplateName: 'missed_you',
      messageTemplateLanguage: 'en',
      messageVariables: { 1: 'Ada' },
    });

    it("sends the approved template in the number's latest conversation, once per (follow-up, call)", async () => {
      await messenger().onCallFinished(live, withTemplate, endedCall());
      await messenger().onCallFinished(live, withTemplate, endedCall());
      expect(sent).toEqual([
        {
          type: 'template',
          conversationId: 'conversation-1',
          templateName: 'missed_you',
          templateLanguage: 'en',
          variables: { 1: 'Ada' },
        },
      ]);
      expect(outcomes).toEqual([
        ['follow-up-1', 'call-1', { status: 'sent', messageId: 'message-9', conversationId: 'conversation-1' }],
      ]);
    });

    it('sends no variables when the follow-up names none', async () => {
      await messenger().onCallFinished(live, { ...withTemplate, messageVariables: null }, endedCall());
      expect(sent.map((s) => (s as { variables: object }).variables)).toEqual([{}]);
    });

    it('skips, recording why, a number on the do-not-call list or one with no conversation', async () => {
      listed = ['+14155550123'];
      await messenger().onCallFinished(live, withTemplate, endedCall());
      listed = [];
      conversation = null;
      await messenger().onCallFinished(live, withTemplate, endedCall({ callId: 'call-2' }));
      expect(outcomes.map(([, , o]) => o)).toEqual([
        { status: 'skipped', reason: 'DO_NOT_CALL' },
        { status: 'skipped', reason: 'NO_CONVERSATION' },
      ]);
      expect(sent).toEqual([]);
    });

    it("records the send's refusal as a skip, and lets any other fault through", async () => {
      sendFails = new ApiError('TEMPLATE_NOT_FOUND', 'template not approved');
      await messenger().onCallFinished(live, withTemplate, endedCall());
      expect(outcomes.map(([, , o]) => o)).toEqual([
        { status: 'skipped', reason: 'TEMPLATE_NOT_FOUND', conversationId: 'conversation-1' },
      ]);
      sendFails = new Error('connection reset');
      await expect(messenger().onCallFinished(live, withTemplate, endedCall({ callId: 'call-3' }))).rejects.toThrow(
        'connection reset',
      );
    });
  });
});
