import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DOMAIN_EVENT_TYPES } from '../../../src/modules/outbox/domain-event';
import { api, unwrap, type Schemas } from '../api';
import { ErrorNote, Field } from '../ui';
import { useLivemode, useOrgId, worldParams } from './org-layout';

type Created = Schemas['CreatedWebhookEndpointResponse'];
type EventType = Schemas['CreateWebhookDto']['events'][number];

/** The events a new endpoint starts with: what a call's outcome needs. */
const DEFAULT_EVENTS: EventType[] = ['call.started', 'call.ended', 'call.failed'];

/**
 * A new endpoint in the world the switch shows: URL, events (the list is the service's own), description. The
 * answer's signing secret goes to `onCreated`, which shows it once.
 */
export function WebhookForm({ onCreated, onCancel }: { onCreated: (created: Created) => void; onCancel: () => void }) {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>(DEFAULT_EVENTS);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/webhooks', {
          params: worldParams(orgId, livemode),
          body: { url, events, ...(description ? { description } : {}) },
        }),
      ),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: ['webhooks', orgId] });
      onCreated(result.data);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-label="New webhook endpoint">
      <Field label="Endpoint URL" hint="https:// and public, except where the deployment allows local test URLs.">
        {(id) => (
          <input id={id} type="url" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} />
        )}
      </Field>
      <fieldset>
        <legend>Events (at most 10)</legend>
        <div className="checks">
          {DOMAIN_EVENT_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
              />{' '}
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Description">
        {(id) => <input id={id} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <button type="submit" disabled={create.isPending || events.length === 0}>
        Create endpoint
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
      {create.isError && <ErrorNote error={create.error} />}
    </form>
  );
}
