import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api';
import { Field, FormActions, QueryView, formatDate } from '../ui';
import { NumberHealthLink } from '../numbers/number-health';
import { orgPath, useOrgId } from './org-layout';

export function PhoneNumbersPage() {
  const orgId = useOrgId();
  const [adding, setAdding] = useState(false);
  const numbers = useQuery({
    queryKey: ['numbers', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/phone-numbers', { params: orgPath(orgId) })),
  });
  return (
    <>
      <h1>Phone numbers</h1>
      {adding ? (
        <ImportNumberForm orgId={orgId} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          Import from voice platform
        </button>
      )}
      <QueryView query={numbers} empty="No phone numbers yet." isEmpty={(d) => d.data.length === 0}>
        {({ data }) => (
          <ul className="rows">
            {data.map((n) => (
              <li key={n.id}>
                <strong>{n.number}</strong> {n.label} <span data-testid="number-platform">on {n.platform}</span>
                {n.fallback ? (
                  <span data-testid="number-fallback">, falls back to {n.fallback.platform}</span>
                ) : null}{' '}
                <span className="muted">added {formatDate(n.createdAt)}</span>{' '}
                <NumberHealthLink numberId={n.id} number={n.number} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </>
  );
}

type Platform = 'simulator' | 'vapi' | 'retell';
const PLATFORMS: Platform[] = ['vapi', 'retell', 'simulator'];

/**
 * Assigns a number without a platform id: on Vapi or Retell the service finds the number in that account and
 * points it at itself (docs/providers.md); a number the platform does not have is refused (INVALID_PHONE), shown
 * by FormActions. A fallback names the same number on a second platform (failover).
 */
function ImportNumberForm({ orgId, onDone }: { orgId: string; onDone: () => void }) {
  const client = useQueryClient();
  const [number, setNumber] = useState('');
  const [label, setLabel] = useState('');
  const [platform, setPlatform] = useState<Platform | ''>('');
  const [fallback, setFallback] = useState<Platform | ''>('');
  const [fallbackId, setFallbackId] = useState('');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/phone-numbers', {
          params: orgPath(orgId),
          body: {
            number,
            ...(label ? { label } : {}),
            ...(platform ? { platform } : {}),
            ...(fallback ? { fallback: { platform: fallback, providerId: fallbackId || number } } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['numbers', orgId] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="panel" aria-label="Import a phone number">
      <Field label="Number (E.164)" hint="Bought or imported in the voice platform's dashboard first.">
        {(id) => (
          <input
            id={id}
            required
            pattern="\+[1-9][0-9]{6,14}"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
          />
        )}
      </Field>
      <Field label="Label">
        {(id) => <input id={id} maxLength={200} value={label} onChange={(e) => setLabel(e.target.value)} />}
      </Field>
      <Field label="Platform" hint="Empty: the service's default platform for new numbers.">
        {(id) => <PlatformSelect id={id} value={platform} onChange={setPlatform} none="default" />}
      </Field>
      <Field label="Fallback platform" hint="The same number imported on a second platform, used when the first fails.">
        {(id) => <PlatformSelect id={id} value={fallback} onChange={setFallback} none="none" />}
      </Field>
      {fallback ? (
        <Field label="Its id on the fallback platform" hint="Vapi's phone number id; on Retell, empty (the number).">
          {(id) => <input id={id} maxLength={200} value={fallbackId} onChange={(e) => setFallbackId(e.target.value)} />}
        </Field>
      ) : null}
      <FormActions saveLabel="Import" busy={save.isPending} error={save.error} onCancel={onDone} />
    </form>
  );
}

/** A voice platform, or none (`""`, shown as `none`). */
function PlatformSelect(props: {
  id: string;
  value: Platform | '';
  onChange: (p: Platform | '') => void;
  none: string;
}) {
  return (
    <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value as Platform | '')}>
      <option value="">{props.none}</option>
      {PLATFORMS.map((p) => (
        <option key={p}>{p}</option>
      ))}
    </select>
  );
}
