// Preloaded into the CLI's processes by the README samples (NODE_OPTIONS=--import): their clock reads
// EDGELOG_README_CLOCK (ms) at start and runs on from there, so that the samples show the same days and
// data on any day they are made. Only the samples use it; edgelog itself has no clock override.
const start = Number(process.env.EDGELOG_README_CLOCK);
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
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
