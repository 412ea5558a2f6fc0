/** The longest note a label may carry (docs/answer-detection.md, README "Bounds"); plain, so the console reads it too. */
export const MAX_LABEL_NOTE = 1000;
