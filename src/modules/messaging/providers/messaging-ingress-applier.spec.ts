import { Logger } from '@nestjs/common';
import { fakeOf } from '../../../infra/testing/fake-of';
import type { DeliveryStatusService } from '../delivery-status.service';
import type { MessagingAccount } from '../messaging-account.entity';
import type { MessagingAccountsService } from '../messaging-accounts.service';
import type { InboundMessage, RecordInboundMessageCommand } from '../record-inbound-message.command';
import type { SendMessageJob } from '../send-message.job';
import { MessagingIngressApplier } from './messaging-ingress-applier';

const accountId = '0190a000-0000-7000-8000-0000000000a1';
const ourMessageId = '0190a000-0000-7000-8000-0000000000b2';
const report = { accountId, providerMessageId: 'wamid.1' };

/** The applier with the collaborators a case gives; any other one it touches throws. */
function applier(given: {
  accounts?: Partial<MessagingAccountsService>;
  recordInbound?: Partial<RecordInboundMessageCommand>;
  statuses?: Partial<DeliveryStatusService>;
  sendQueue?: Partial<SendMessageJob>;
}) {
  return new MessagingIngressApplier(
    fakeOf<MessagingAccountsService>(given.accounts, 'accounts'),
    fakeOf<RecordInboundMessageCommand>(given.recordInbound, 'recordInbound'),
    fakeOf<DeliveryStatusService>(given.statuses, 'statuses'),
    fakeOf<SendMessageJob>(given.sendQueue, 'sendQueue'),
  );
}

describe('MessagingIngressApplier: each ingress event reaches the rule that owns it', () => {
  beforeAll(() => Logger.overrideLogger(false));
  it('finds the addressed account by its phone-number id', async () => {
    const account = { id: accountId } as MessagingAccount;
    const findByPhoneNumberId = jest.fn().mockResolvedValue(account);
    await expect(applier({ accounts: { findByPhoneNumberId } }).findAccount('106540352242922')).resolves.toBe(account);
    expect(findByPhoneNumberId).toHaveBeenCalledWith('106540352242922');
  });

  it("records a user's message of every kind, a system message included, through RecordInboundMessageCommand", async () => {
    const execute = jest.fn().mockResolvedValue({ conversationId: 'c', messageId: 'm', duplicate: false });
    const account = { id: accountId } as MessagingAccount;
    const base = { account, from: '+14155550100', providerMessageId: 'wamid.in', timestamp: new Date(0) };
    const messages: InboundMessage[] = [
      { ...base, messageType: 'text', text: 'hello' },
      { ...base, messageType: 'image', text: '', mediaId: 'media-1', mediaCaption: 'a cat' },
      { ...base, messageType: 'system', text: 'User changed number', payload: null },
    ];
    for (const message of messages) await applier({ recordInbound: { execute } }).apply({ kind: 'inbound', message });
    expect(execute.mock.calls).toEqual(messages.map((message) => [message]));
  });

  it('hands a delivery report carrying our message id to the send queue first, then to DeliveryStatusService', async () => {
    const order: string[] = [];
    const reconcile = jest.fn(async () => {
      order.push('reconcile');
      return true;
    });
    const apply = jest.fn(async () => {
      order.push('apply');
      return true;
    });
    await applier({ sendQueue: { reconcile }, statuses: { apply } }).apply({
      kind: 'delivery-status',
      ...report,
      status: 'sent',
      ourMessageId,
    });
    expect(order).toEqual(['reconcile', 'apply']);
    expect(reconcile).toHaveBeenCalledWith(accountId, ourMessageId, 'wamid.1');
    expect(apply).toHaveBeenCalledWith({ ...report, status: 'sent' });
  });

  it('applies a report without our id, or with an echo that is no UUID, without asking the send queue', async () => {
    const apply = jest.fn().mockResolvedValue(true);
    for (const ours of [undefined, null, 'not-ours']) {
      await applier({ statuses: { apply } }).apply({
        kind: 'delivery-status',
        ...report,
        status: 'delivered',
        ourMessageId: ours,
      });
    }
    expect(apply.mock.calls).toEqual([1, 2, 3].map(() => [{ ...report, status: 'delivered' }]));
  });

  it("keeps the provider's error of a failed report", async () => {
    const apply = jest.fn().mockResolvedValue(true);
    const error = { code: 131047, title: 'Re-engagement message' };
    await applier({ statuses: { apply } }).apply({ kind: 'delivery-status', ...report, status: 'failed', error });
    expect(apply).toHaveBeenCalledWith({ ...report, status: 'failed', error });
  });

  it("moves the stored templates of the addressed business account on a template's review outcome", async () => {
    const setTemplateStatus = jest.fn().mockResolvedValue(2);
    await applier({ accounts: { setTemplateStatus } }).apply({
      kind: 'template-status',
      wabaId: '102290129340398',
      processWide: true,
      name: 'order_update',
      language: 'en_US',
      status: 'REJECTED',
    });
    expect(setTemplateStatus).toHaveBeenCalledWith('102290129340398', true, 'order_update', 'en_US', 'REJECTED');
  });
});
