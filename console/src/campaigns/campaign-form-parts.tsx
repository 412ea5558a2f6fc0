import { RETRYABLE_REASONS, CAMPAIGN_BOUNDS } from '../../../src/modules/audiences/campaign-bounds';
import type { Schemas } from '../api';
import { Field } from '../ui';

type Window = Schemas['CallingWindowDto'];
type Retry = Schemas['RetryPolicyDto'];

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly Window['days'][number][];

export const defaultWindow = (): Window => ({
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  start: '09:00',
  end: '18:00',
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
});

export const defaultRetry = (): Retry => ({
  on: ['customer-did-not-answer', 'customer-busy'],
  delaySeconds: 3600,
  maxAttempts: 3,
});

/** Toggles one value in a list kept in the form's state. */
const toggled = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

/** The calling window: days, local opening hours and the zone for contacts whose own zone is unknown. */
export function WindowFields({ value, onChange }: { value: Window; onChange: (next: Window) => void }) {
  return (
    <fieldset>
      <legend>Calling window</legend>
      <div className="checks">
        {DAYS.map((day) => (
          <label key={day}>
            <input
              type="checkbox"
              checked={value.days.includes(day)}
              onChange={(e) => onChange({ ...value, days: toggled(value.days, day, e.target.checked) })}
            />{' '}
            {day}
          </label>
        ))}
      </div>
      <Field label="Opens (local time)">
        {(id) => (
          <input
            id={id}
            type="time"
            value={value.start}
            onChange={(e) => onChange({ ...value, start: e.target.value })}
          />
        )}
      </Field>
      <Field label="Closes (local time)" hint="Not after the opening time means past midnight.">
        {(id) => (
          <input id={id} type="time" value={value.end} onChange={(e) => onChange({ ...value, end: e.target.value })} />
        )}
      </Field>
      <Field label="Time zone" hint="For contacts whose own time zone is unknown (IANA name, e.g. Europe/Paris).">
        {(id) => (
          <input
            id={id}
            value={value.timezone}
            maxLength={64}
            onChange={(e) => onChange({ ...value, timezone: e.target.value })}
          />
        )}
      </Field>
    </fieldset>
  );
}

/** The retry policy: which outcomes are retried, after how long, and how many attempts in all. */
export function RetryFields({ value, onChange }: { value: Retry; onChange: (next: Retry) => void }) {
  return (
    <fieldset>
      <legend>Retries</legend>
      <div className="checks">
        {RETRYABLE_REASONS.map((reason) => (
          <label key={reason}>
            <input
              type="checkbox"
              checked={value.on.includes(reason)}
              onChange={(e) => onChange({ ...value, on: toggled(value.on, reason, e.target.checked) })}
            />{' '}
            {reason}
          </label>
        ))}
      </div>
      <Field label="Delay before a retry (seconds)" hint={`0 to ${CAMPAIGN_BOUNDS.retryDelaySeconds}`}>
        {(id) => (
          <input
            id={id}
            type="number"
            min={0}
            max={CAMPAIGN_BOUNDS.retryDelaySeconds}
            value={value.delaySeconds}
            onChange={(e) => onChange({ ...value, delaySeconds: e.target.valueAsNumber })}
          />
        )}
      </Field>
      <Field label="Attempts in all" hint={`1 to ${CAMPAIGN_BOUNDS.maxAttempts}, the first included`}>
        {(id) => (
          <input
            id={id}
            type="number"
            min={1}
            max={CAMPAIGN_BOUNDS.maxAttempts}
            value={value.maxAttempts}
            onChange={(e) => onChange({ ...value, maxAttempts: e.target.valueAsNumber })}
          />
        )}
      </Field>
    </fieldset>
  );
}

/** An optional whole-number cap; empty means none. */
export function CapField({
  label,
  max,
  value,
  onChange,
}: {
  label: string;
  max: number;
  value: string;
  onChange: (next: string) => void;
}) {
  return (
    <Field label={label} hint={`1 to ${max}; empty: no cap`}>
      {(id) => (
        <input id={id} type="number" min={1} max={max} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}
