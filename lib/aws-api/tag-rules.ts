/*
 * The tag rules of the AWS APIs that receive tags, free of cdktf: the legacy manifest converter
 * (which runs without it) checks EC2NodeClass tags with them too.
 */

/** AWS tag limits (the same for IAM, EKS, SQS, EventBridge, KMS and EC2): AWS "Tagging best practices" and each service's Tag type. */
export const TAG_LIMITS = { maxTags: 50, keyLength: 128, valueLength: 256 } as const;

/**
 * The characters IAM, SQS, EventBridge and KMS allow in a tag key or value: Unicode letters,
 * digits, spaces and `_ . : / = + - @` (IAM API Reference, Tag: pattern `[\p{L}\p{Z}\p{N}_.:/=+\-@]*`).
 */
const TAG_CHARACTER = /[\p{L}\p{Z}\p{N}_.:/=+\-@]/u;
/** What {@link TAG_CHARACTER} allows, for messages. */
const TAG_CHARACTERS_TEXT = "letters, digits, spaces and _ . : / = + - @";

/** The tag rules of one AWS API that receives tags: its name and whether it limits the characters. */
export interface TagApi {
  /** The API, as messages name it, e.g. `"IAM"`. */
  readonly name: string;
  /** Whether keys and values may hold only {@link TAG_CHARACTERS_TEXT} (else any character). */
  readonly restrictsCharacters: boolean;
}

/**
 * The tag rules of the APIs this library's resources (and Karpenter's, for EC2NodeClass `spec.tags`)
 * send tags to. Every one allows keys of 1–128 and values of 0–256 characters ({@link TAG_LIMITS});
 * they differ in the characters:
 * - IAM (roles, policies, service-linked roles, instance profiles): IAM API Reference, "Tag": key
 *   `[\p{L}\p{Z}\p{N}_.:/=+\-@]+` of 1–128, value `[\p{L}\p{Z}\p{N}_.:/=+\-@]*` of 0–256.
 * - SQS (queues): Amazon SQS Developer Guide, "Quotas related to queues" (Queue tag): Unicode
 *   alphanumeric characters, whitespace and `_ . : / = + - @`; key ≤ 128, value ≤ 256.
 * - EventBridge (rules): Amazon EventBridge User Guide, "Tagging resources in Amazon EventBridge":
 *   letters, numbers, spaces and `. : + = @ _ / -`; API Reference "Tag": key 1–128, value 0–256.
 * - KMS (keys): AWS KMS API Reference, "Tag": key 1–128, value 0–256; characters per "Tagging AWS
 *   resources" (AWS General Reference), which the KMS Developer Guide refers to: letters, numbers,
 *   spaces and `_ . : / = + - @`.
 * - EC2 (tags, launch templates, instances, volumes, network interfaces): Amazon EC2 User Guide,
 *   "Tag restrictions": key ≤ 128, value ≤ 256, any character.
 * - EKS (access entries, Pod Identity associations, node groups): key 1–128, value 0–256 (AWS::EKS
 *   Tag types); no character rule of its own.
 */
export const TAG_APIS = {
  IAM: { name: "IAM", restrictsCharacters: true },
  SQS: { name: "SQS", restrictsCharacters: true },
  EventBridge: { name: "EventBridge", restrictsCharacters: true },
  KMS: { name: "KMS", restrictsCharacters: true },
  EC2: { name: "EC2", restrictsCharacters: false },
  EKS: { name: "EKS", restrictsCharacters: false },
} as const satisfies Record<string, TagApi>;

/** One resource that gets the tags, and the API that tags it, e.g. `{ api: TAG_APIS.IAM, resource: "the node role" }`. */
export interface TagReceiver {
  /** The API the tags are sent to. */
  readonly api: TagApi;
  /** The resource, for messages, e.g. `"the interruption queue"`. */
  readonly resource: string;
}

/** The characters of `text` outside {@link TAG_CHARACTER}, each once, quoted: `"," and "&"`. */
function badTagCharacters(text: string): string[] {
  return [...new Set([...text].filter((ch) => !TAG_CHARACTER.test(ch)))].map((ch) => JSON.stringify(ch));
}

/** `a`, `a and b`, `a, b and c`. */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * Why the receivers that restrict tag characters refuse a tag, or undefined when none does:
 * `the key "a,b" holds ",", which IAM (the node role) and SQS (the interruption queue) refuse in a tag: …`.
 * @param key the key, or undefined when it is not judged (a token, or already refused)
 * @param value the value, or undefined when it is not judged
 */
export function tagCharacterProblem(
  key: string | undefined,
  value: string | undefined,
  receivers: readonly TagReceiver[],
): string | undefined {
  const refusing = receivers.filter((r) => r.api.restrictsCharacters);
  const inKey = key === undefined ? [] : badTagCharacters(key);
  const inValue = value === undefined ? [] : badTagCharacters(value);
  if (refusing.length === 0 || inKey.length + inValue.length === 0) return undefined;
  const byApi = new Map<string, string[]>();
  for (const r of refusing) byApi.set(r.api.name, [...(byApi.get(r.api.name) ?? []), r.resource]);
  const who = listText([...byApi].map(([api, resources]) => `${api} (${listText(resources)})`));
  const what = [
    ...(inKey.length ? [`the key ${JSON.stringify(key)} holds ${listText(inKey)}`] : []),
    ...(inValue.length ? [`the value holds ${listText(inValue)}`] : []),
  ];
  return `${what.join(" and ")}, which ${who} ${byApi.size === 1 ? "refuses" : "refuse"} in a tag: only ${TAG_CHARACTERS_TEXT} are allowed there`;
}
