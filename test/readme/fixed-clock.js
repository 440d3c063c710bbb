// Preloaded into the CLI's processes by the README samples (NODE_OPTIONS=--import): their clock reads
// EDGELOG_README_CLOCK (ms) at the session's start and runs on from there, so that the samples show the
// same days and data on any day they are made. Only the samples use it; edgelog itself has no clock override.
const start = Number(process.env.EDGELOG_README_CLOCK);
if (Number.isFinite(start)) {
  const RealDate = Date;
  // EDGELOG_README_CLOCK_SINCE (real ms) is when the samples' session began: every process of it runs on
  // one clock from there, so a later command never reads an earlier time than a former one wrote (a
  // silence made by one command is in force for the next).
  const since = Number(process.env.EDGELOG_README_CLOCK_SINCE);
  const offset = start - (Number.isFinite(since) ? since : RealDate.now());
  class SampleDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = SampleDate;
}
