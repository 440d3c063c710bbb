// What a terminal shows: the characters a terminal would act on, and a tiny screen model of the
// carriage returns and line feeds a command writes (enough to see what a redrawn line leaves behind).

/** Any character a terminal acts on: C0 but the line feed, DEL, C1, and the bidirectional controls. */
export const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
