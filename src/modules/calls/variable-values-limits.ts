import type { FlatRecordLimits } from '../../common/validation/flat-record';

/**
 * The `{{placeholder}}` values of a call; their rendered results are bounded too (call-resolution). A plain
 * constant, free of the validation framework: the console checks uploaded campaign rows against it.
 */
export const VARIABLE_VALUES_LIMITS: FlatRecordLimits = {
  maxKeys: 100,
  // As long as a case variable's name may be.
  maxKeyLength: 100,
  maxStringLength: 1000,
  scalars: false,
};
