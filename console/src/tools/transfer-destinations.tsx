import { TOOL_LIMITS } from '../../../src/modules/tools/tool-limits';
import { transferDestinationDtoModeValues } from '../generated/admin';
import type { Schemas } from '../api';
import { Field } from '../ui';

export type Destination = Schemas['TransferDestinationDto'];

/**
 * A transfer tool's destinations (1-10): number, when to pick it, what is said first, cold or warm. The API
 * checks each number (E.164) and names the one it refuses (`destinations.<n>.number`), shown under the list.
 */
export function TransferDestinationsFields({
  value,
  onChange,
  problem,
}: {
  value: Destination[];
  onChange: (next: Destination[]) => void;
  problem?: string;
}) {
  const { min, max } = TOOL_LIMITS.destinations;
  const set = (index: number, patch: Partial<Destination>) =>
    onChange(value.map((d, i) => (i === index ? { ...d, ...patch } : d)));
  return (
    <fieldset>
      <legend>
        Destinations ({min}-{max})
      </legend>
      {value.map((d, index) => (
        <div key={index} className="variable-row" role="group" aria-label={`Destination ${index + 1}`}>
          <Field label={`Number of destination ${index + 1}`} hint="International form, e.g. +14155550150">
            {(id) => (
              <input
                id={id}
                type="tel"
                required
                maxLength={32}
                value={d.number}
                onChange={(e) => set(index, { number: e.target.value })}
              />
            )}
          </Field>
          <Field label={`Description of destination ${index + 1}`}>
            {(id) => (
              <input
                id={id}
                maxLength={TOOL_LIMITS.description}
                value={d.description ?? ''}
                onChange={(e) => set(index, { description: e.target.value || undefined })}
              />
            )}
          </Field>
          <Field label={`Message of destination ${index + 1}`} hint="Said to the caller before transferring">
            {(id) => (
              <input
                id={id}
                maxLength={TOOL_LIMITS.message}
                value={d.message ?? ''}
                onChange={(e) => set(index, { message: e.target.value || undefined })}
              />
            )}
          </Field>
          <Field label={`Mode of destination ${index + 1}`}>
            {(id) => (
              <select
                id={id}
                value={d.mode}
                onChange={(e) => set(index, { mode: e.target.value as Destination['mode'] })}
              >
                {transferDestinationDtoModeValues.map((mode) => (
                  <option key={mode}>{mode}</option>
                ))}
              </select>
            )}
          </Field>
          <button
            type="button"
            className="secondary"
            disabled={value.length <= min}
            onClick={() => onChange(value.filter((_, i) => i !== index))}
          >
            Remove destination {index + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        disabled={value.length >= max}
        onClick={() => onChange([...value, { number: '', mode: 'cold' }])}
      >
        Add destination
      </button>
      {problem && (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
