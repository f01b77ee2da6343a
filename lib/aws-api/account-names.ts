import { IConstruct } from "constructs";
import { TerraformResource } from "cdktf";
import { KarpenterValidationError } from "../core/errors";
import { appIndex, attached, register, registered } from "../core/app-index";
import { addSynthCheck } from "../core/synth-checks";
import { awsLocation } from "./aws-context";

/*
 * IAM names are unique per AWS account, in every region at once: two constructs of one app that
 * create the same role or managed policy name in one account make the second create fail at apply
 * (EntityAlreadyExists). Each construct of this library that creates an IAM name records it here,
 * and a synth-time validation compares the names of every construct still in the tree.
 */

/** The IAM namespaces a name must be unique in (a service-linked role is a role). */
export type AccountNameKind = "IAM role" | "IAM managed policy";

/** One account-wide name a construct creates. */
export interface AccountWideName {
  /** Which IAM namespace. */
  readonly kind: AccountNameKind;
  /** The name as created, when known at synth (from a literal, or derived from the cluster's literal name). */
  readonly literal: string;
  /** The prop of the recording construct that sets the name, e.g. `roleName` (see {@link attributeAccountNames}). */
  readonly field: string;
  /** The resource that creates it: its AWS provider tells the account. */
  readonly resource: TerraformResource;
  /** The value of `field` shown in the error, e.g. a policy name suffix. @default the name */
  readonly shown?: string;
}

/** How the names a construct recorded are reported, for {@link attributeAccountNames}. */
export interface AccountNameOwner {
  /** The construct errors are reported on (its path), e.g. the `Karpenter` that made the role. */
  readonly owner: IConstruct;
  /** The owner's prop of a recorded field, e.g. `roleName` → `nodeRole.roleName`. */
  readonly fieldOf: (field: string) => string;
  /** The value shown for the prop. @default the clashing names */
  readonly value?: unknown;
  /** What to do, when not "set <field> to a name unique in the account". */
  readonly advice?: string;
  /** Owners whose clash with this one another check already reports (the one-install-per-cluster error). */
  readonly reportedElsewhere?: (otherOwner: IConstruct) => boolean;
}

interface Recorded extends AccountNameOwner {
  readonly names: AccountWideName[];
}

const records = new WeakMap<IConstruct, Recorded>();

/**
 * Records the account-wide names `construct` creates (names unknown at synth are left out) and adds
 * its synth-time check: a name that a construct earlier in the tree creates too, in the same AWS
 * account or in accounts not known to differ, is a KarpenterValidationError naming both construct
 * paths, the name and the prop to set.
 * @param advice replaces "set <field> to a name unique in the account" in the error
 */
export function recordAccountNames(
  construct: IConstruct,
  names: (Omit<AccountWideName, "literal"> & { literal: string | undefined })[],
  advice?: string,
): void {
  const known = names.filter((n): n is AccountWideName => n.literal !== undefined);
  if (known.length === 0) return;
  records.set(construct, { names: known, owner: construct, fieldOf: (f) => f, advice });
  register(construct, REGISTRY, construct);
  addSynthCheck(construct, () => clashes(construct));
}

/**
 * Reports the names `child` recorded as props of another construct (e.g. a Karpenter's
 * `nodeRole.roleName`): errors then name the prop the user sets.
 */
export function attributeAccountNames(child: IConstruct, owner: AccountNameOwner): void {
  const record = records.get(child);
  if (record) records.set(child, { ...owner, names: record.names });
}

const REGISTRY = "account-names";

/** IAM names are unique case-insensitively ("PRODROLE" and "prodrole" cannot both exist). */
const nameKey = (n: AccountWideName) => `${n.kind}\u0000${n.literal.toLowerCase()}`;

/**
 * The recording constructs still in the tree, in tree order (a construct reports the clashes with
 * those before it), and who records each name: indexed once per app state.
 */
function nameIndex(scope: IConstruct): { order: Map<IConstruct, number>; byName: Map<string, IConstruct[]> } {
  return appIndex(scope, REGISTRY, () => {
    const recorded = new Set(registered<IConstruct>(scope, REGISTRY).filter(attached));
    const order = new Map<IConstruct, number>();
    if (recorded.size > 1)
      for (const c of scope.node.root.node.findAll()) if (recorded.has(c)) order.set(c, order.size);
    const byName = new Map<string, IConstruct[]>();
    for (const c of order.keys())
      for (const n of records.get(c)!.names) byName.set(nameKey(n), [...(byName.get(nameKey(n)) ?? []), c]);
    return { order, byName };
  });
}

function clashes(construct: IConstruct): KarpenterValidationError[] {
  const mine = records.get(construct)!;
  const index = nameIndex(construct);
  const position = index.order.get(construct);
  if (position === undefined) return [];
  const byField = new Map<string, { names: Set<string>; others: Set<string>; accountsUnknown: boolean }>();
  for (const n of mine.names) {
    const earlier = [...new Set(index.byName.get(nameKey(n)) ?? [])]
      .filter((c) => index.order.get(c)! < position)
      .map((c) => records.get(c)!);
    for (const other of earlier) {
      if (other.owner === mine.owner || mine.reportedElsewhere?.(other.owner) || other.reportedElsewhere?.(mine.owner))
        continue;
      for (const o of other.names) {
        if (nameKey(o) !== nameKey(n)) continue;
        const [a, b] = [awsLocation(n.resource).account, awsLocation(o.resource).account];
        if (a !== undefined && b !== undefined && a !== b) continue;
        const entry = byField.get(n.field) ?? {
          names: new Set<string>(),
          others: new Set<string>(),
          accountsUnknown: false,
        };
        byField.set(n.field, entry);
        entry.names.add(`${n.kind} "${n.literal}"`);
        entry.others.add(`${other.owner.node.path} (${other.fieldOf(o.field)})`);
        entry.accountsUnknown ||= a === undefined || b === undefined;
      }
    }
  }
  return [...byField].map(([field, e]) => {
    const names = [...e.names];
    const literals = [...new Set(mine.names.filter((n) => n.field === field).map((n) => n.shown ?? n.literal))];
    const value = mine.value !== undefined ? mine.value : literals.length === 1 ? literals[0] : literals;
    const fix = mine.advice ?? `set ${mine.fieldOf(field)} (or the other's) to a name unique in the account`;
    const accounts = e.accountsUnknown
      ? " The accounts are not known at synth; if the stacks deploy to different accounts, say so with the AwsProvider's allowedAccountIds (one account each)."
      : "";
    return new KarpenterValidationError(
      "AWS_IAM_NAME_TAKEN",
      mine.owner,
      mine.fieldOf(field),
      value,
      `an IAM name no other construct of this app creates in the same AWS account: ${[...e.others].join(", ")} also create${e.others.size === 1 ? "s" : ""} ${names.join(", ")}. IAM names are account-wide (the same in every region), so the second create fails at apply with EntityAlreadyExists; ${fix}.${accounts}`,
    );
  });
}

const SPOT_ROLES = "spot-service-linked-roles";

/**
 * Records that `role` creates the EC2 Spot service-linked role (`spot.amazonaws.com`), which exists
 * once per account: NodePools that allow spot ask {@link createsSpotServiceLinkedRoleFor} at synth.
 */
export function recordSpotServiceLinkedRole(role: TerraformResource): void {
  register(role, SPOT_ROLES, role);
}

/**
 * Whether a construct of the app creates the spot service-linked role in the AWS account of
 * `resource` — or in an account not known to differ from it, as the IAM name clash check judges
 * (creating the role twice there is an error, so a second one can never be added to silence a warning).
 * @param resource a resource or data source of the account (e.g. the cluster of a NodePool's install)
 */
export function createsSpotServiceLinkedRoleFor(
  resource: IConstruct & { readonly provider?: TerraformResource["provider"] },
): boolean {
  const account = awsLocation(resource).account;
  return registered<TerraformResource>(resource, SPOT_ROLES)
    .filter(attached)
    .some((role) => {
      const other = awsLocation(role).account;
      return account === undefined || other === undefined || account === other;
    });
}
