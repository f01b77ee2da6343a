import { compareVersions, knownMinors } from "./index";

/*
 * Upstream's support policy, hand-written: regular minors are supported only until the next minor is
 * released; every 6 months one minor is designated Long-Term Support (LTS) and supported to a published
 * month. Source: Karpenter documentation, "Compatibility" → "Support Policy"
 * (https://karpenter.sh/v1.9/upgrading/compatibility/: "Regular releases are supported only until the next
 * minor release is published", "v1.9 is supported until Feb 2027"), and the LTS banner of each LTS release's
 * GitHub release notes ("🛡️ This is a Long-Term Support (LTS) release. Supported until …").
 */

/** An LTS line: its minor and the last month it is supported. */
export interface LtsLine {
  /** The minor, e.g. `"1.14"`. */
  readonly minor: string;
  /** The last month of support, `"YYYY-MM"` (upstream publishes a month, e.g. "Jul 2027"). */
  readonly until: string;
  /** Where upstream says so. */
  readonly source: string;
}

/** The LTS lines, oldest first. */
export const LTS_LINES: readonly LtsLine[] = [
  {
    minor: "1.9",
    until: "2027-02",
    source:
      'https://karpenter.sh/v1.9/upgrading/compatibility/ ("v1.9 is supported until Feb 2027"); release notes of v1.9.2–v1.9.4 ("Supported until Feb 2027", https://github.com/aws/karpenter-provider-aws/releases/tag/v1.9.4)',
  },
  {
    minor: "1.14",
    until: "2027-07",
    source:
      'release notes of v1.14.2–v1.14.4 ("This is a Long-Term Support (LTS) release. Supported until Jul 2027", https://github.com/aws/karpenter-provider-aws/releases/tag/v1.14.4)',
  },
];

/** How upstream supports one minor. */
export interface SupportFact {
  /** The minor, e.g. `"1.13"`. */
  readonly minor: string;
  /** True for an LTS line. */
  readonly lts: boolean;
  /** LTS: the last month of support, `"YYYY-MM"`. */
  readonly until?: string;
  /** A regular minor: the minor whose release ended its support (`"1.14"` for 1.13); undefined while it is the newest known minor. */
  readonly supersededBy?: string;
  /** Where the policy or date comes from. */
  readonly source: string;
}

const POLICY =
  'https://karpenter.sh/v1.9/upgrading/compatibility/ ("Regular releases are supported only until the next minor release is published")';
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `"2027-02"` → `"Feb 2027"`. */
export function monthName(yyyymm: string): string {
  const [y, m] = yyyymm.split("-").map(Number);
  return `${MONTHS[m - 1]} ${y}`;
}

/** The support of a known minor (`"1.14"`). */
export function supportOf(minor: string): SupportFact {
  const lts = LTS_LINES.find((l) => l.minor === minor);
  if (lts) return { minor, lts: true, until: lts.until, source: lts.source };
  const next = knownMinors().find((m) => compareVersions(m, minor) > 0);
  return { minor, lts: false, ...(next ? { supersededBy: next } : {}), source: POLICY };
}

/**
 * Why upstream no longer supports `minor` on `now`, or undefined while it does: an LTS line after the
 * last day of its month, a regular minor once a newer minor is released.
 * @param now the date to judge at (the machine's clock by default)
 */
export function pastSupport(minor: string, now: Date = new Date()): string | undefined {
  const s = supportOf(minor);
  if (s.lts) {
    const [y, m] = s.until!.split("-").map(Number);
    // support runs to the end of the named month: the first instant of the next month is past it (UTC)
    if (now.getTime() < Date.UTC(y, m, 1)) return undefined;
    return `the LTS line ${minor} was supported until ${monthName(s.until!)} (upstream's LTS notice)`;
  }
  if (s.supersededBy === undefined) return undefined;
  return `${minor} is a regular minor, supported only until the next minor was released (${s.supersededBy}; upstream's support policy)`;
}

/** The lines upstream supports on `now`: the newest known minor and the LTS lines not past their month, e.g. `1.15 (until the next minor), 1.14 LTS (until Jul 2027)`. */
export function supportedLines(now: Date = new Date()): string {
  const minors = knownMinors();
  const newest = minors[minors.length - 1];
  const lts = LTS_LINES.filter((l) => l.minor !== newest && pastSupport(l.minor, now) === undefined)
    .reverse()
    .map((l) => `${l.minor} LTS (until ${monthName(l.until)})`);
  return [`${newest} (until the next minor)`, ...lts].join(", ");
}
