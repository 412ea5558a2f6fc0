import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { Tx } from '../../infra/database/tx';
import { OutboundAssistantsService } from '../assistants/outbound-assistants.service';
import { CasesService } from '../cases/cases.service';
import { ContactsService } from '../contacts/contacts.service';
import { callToolOf } from '../tools/call-tools';
import { ToolsService } from '../tools/tools.service';
import { ResolutionInput } from './call-resolution';
import { World } from '../../common/auth/world';
import { VoiceSettings, voiceSettingsOf } from '../assistants/voice-settings';

export interface CallReferenceIds {
  contactId?: string;
  caseId?: string;
  /** The case's version to use (extension); omitted: its current one. */
  caseVersion?: number;
  assistantConfigId?: string;
}

/** What a new call is resolved from, and the voice settings it keeps for its platform. */
export type LoadedCallReferences = Omit<ResolutionInput, 'request'> & {
  voiceSettings: VoiceSettings;
  /** The case's version the call was made from; null without a case. */
  caseVersion: number | null;
};

/**
 * Loads what a new call refers to through the owning modules, scoped to the organization (another
 * organization's id is 404 like a missing one). The case, then the assistant (always in this order, so two
 * creations never wait on each other crosswise), are locked FOR SHARE in the creating transaction: their
 * deletes lock FOR UPDATE and refuse while a queued call refers to them, so a committed call never points at a
 * deleted row.
 */
@Injectable()
export class CallReferences {
  constructor(
    private readonly contacts: ContactsService,
    private readonly cases: CasesService,
    private readonly assistants: OutboundAssistantsService,
    private readonly tools: ToolsService,
  ) {}

  /** What a call naming no reference is resolved from: the voice of the organization's default assistant alone. */
  async defaults(organizationId: string): Promise<LoadedCallReferences> {
    const voice = await this.assistants.getDefault(organizationId);
    return { contact: null, case: null, assistant: null, voiceSettings: voiceSettingsOf(voice), caseVersion: null };
  }

  /** The contact is the call's world's (data); the case and assistant the organization's (configuration). */
  async load(tx: Tx, world: World, ids: CallReferenceIds): Promise<LoadedCallReferences> {
    return this.loadSharing(tx, world, ids, new Map());
  }

  /**
   * `load` for one of several calls made together (a dialer's step): what does not depend on the contact (the
   * case, the assistant, the voice) is read once per distinct case, version and assistant, kept in `shared`.
   */
  async loadSharing(
    tx: Tx,
    world: World,
    ids: CallReferenceIds,
    shared: Map<string, Promise<Omit<LoadedCallReferences, 'contact'>>>,
  ): Promise<LoadedCallReferences> {
    if (ids.caseVersion != null && !ids.caseId) throw ApiError.validation('caseVersion', 'caseVersion needs caseId');
    // Every read on the inserting transaction's connection: a read that took a second connection while this one
    // is held would deadlock the pool once as many creations as connections run together.
    const contact = ids.contactId ? await this.contacts.getIn(tx, world, ids.contactId) : null;
    const key = `${ids.caseId ?? ''}/${ids.caseVersion ?? ''}/${ids.assistantConfigId ?? ''}`;
    let configuration = shared.get(key);
    if (!configuration) {
      configuration = this.configuration(tx, world.organizationId, ids);
      shared.set(key, configuration);
    }
    return { contact, ...(await configuration) };
  }

  /** The case (with its tools), the assistant and the voice a call is made with. */
  private async configuration(
    tx: Tx,
    organizationId: string,
    ids: CallReferenceIds,
  ): Promise<Omit<LoadedCallReferences, 'contact'>> {
    const kase = ids.caseId ? await this.cases.getForCall(tx, organizationId, ids.caseId, ids.caseVersion) : null;
    const assistant = ids.assistantConfigId
      ? await this.assistants.getForCall(tx, organizationId, ids.assistantConfigId)
      : null;
    // The case's tools: a tool attached to it cannot be deleted while the case row is locked FOR SHARE.
    const tools = kase ? (await this.tools.forCall(tx, organizationId, kase.case.toolIds)).map(callToolOf) : [];
    // The voice comes from the named assistant, else the organization's default one (which the texts never do).
    const voice = assistant ?? (await this.assistants.getDefaultIn(tx, organizationId));
    return {
      case: kase ? { ...kase.case, prompt: kase.prompt, tools } : null,
      assistant,
      voiceSettings: voiceSettingsOf(voice),
      caseVersion: kase?.version ?? null,
    };
  }
}
