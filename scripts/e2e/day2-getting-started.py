# The AWS side of Karpenter's getting-started install, made without the library, for the day-2 e2e stage
# (scripts/e2e/day2-stage.cjs). Runs in moto's virtualenv against the launcher (scripts/e2e/moto-launcher.py).
#   argv: <moto url> <region> <cluster> <cloudformation.yaml of the running release> [install|retain|delete]
#   (retain and delete: docs/adopting.md's steps 2 and 5 around the takeover)
# 1. the guide's CloudFormation stack `Karpenter-<cluster>` from the release's template, created by moto's
#    CloudFormation (step03-iam-cloud-formation.sh). moto's CloudFormation has no AWS::SQS::QueuePolicy: that one
#    resource is made through the SQS API from the template's own document (the report says so);
# 2. what eksctl makes in step02-create-cluster.sh: the controller role `<cluster>-karpenter` trusting EKS Pod
#    Identity with the stack's controller policies attached, and the association kube-system/karpenter;
# The node role's access to the cluster is not made here: the guide maps it in the aws-auth ConfigMap
# (step02-create-cluster.sh iamIdentityMappings, step04-grant-access.sh), no access entry; the stage writes that
# ConfigMap into the API server, and the takeover creates the access entry (gettingStartedAdoption's default).
# Prints JSON: the stack's resources, who made the queue policy, the controller role, the association, the rules.
import boto3, json, re, sys, yaml

url, region, name, template = sys.argv[1:5]
mode = sys.argv[5] if len(sys.argv) > 5 else "install"
kw = dict(endpoint_url=url, region_name=region, aws_access_key_id="e2e-guide", aws_secret_access_key="e2e")
cfn = boto3.client("cloudformation", **kw); iam = boto3.client("iam", **kw); sqs = boto3.client("sqs", **kw); eks = boto3.client("eks", **kw)
body = open(template).read()
stack = f"Karpenter-{name}"
params = [{"ParameterKey": "ClusterName", "ParameterValue": name}]


def retained_template(text):
    """docs/adopting.md step 2: DeletionPolicy Retain on the node role, the queue, its policy and the 1.9+ controller policies."""
    names = ["KarpenterNodeRole", "KarpenterInterruptionQueue", "KarpenterInterruptionQueuePolicy"]
    names += re.findall(r"^  (\w+):\n    Type: AWS::IAM::ManagedPolicy", text, re.M)
    for n in names:
        text = text.replace(f"\n  {n}:\n", f"\n  {n}:\n    DeletionPolicy: Retain\n", 1)
    return text, names


if mode == "retain":
    # docs/adopting.md step 2, before the takeover deploy: the stack updated with DeletionPolicy Retain
    text, names = retained_template(body)
    cfn.update_stack(StackName=stack, TemplateBody=text, Parameters=params, Capabilities=["CAPABILITY_NAMED_IAM"])
    print(json.dumps({"stack": stack, "status": cfn.describe_stacks(StackName=stack)["Stacks"][0]["StackStatus"], "retained": names}))
    sys.exit(0)
if mode == "delete":
    # docs/adopting.md step 5, after the takeover: the stack deleted; only what was not retained goes (the old rules)
    ev = boto3.client("events", **kw)
    before = sorted(r["Name"] for r in ev.list_rules()["Rules"])
    cfn.delete_stack(StackName=stack)
    after = sorted(r["Name"] for r in ev.list_rules()["Rules"])
    stacks = [s["StackName"] for s in cfn.list_stacks()["StackSummaries"] if s["StackStatus"] != "DELETE_COMPLETE"]
    kept = {"nodeRole": bool(iam.get_role(RoleName=f"KarpenterNodeRole-{name}")), "queue": bool(sqs.get_queue_url(QueueName=name)),
            "policies": sorted(p["PolicyName"] for p in iam.list_policies(Scope="Local")["Policies"] if p["PolicyName"].startswith("KarpenterController"))}
    print(json.dumps({"stack": stack, "stacksLeft": stacks, "rulesDeleted": [r for r in before if r not in after], "rulesLeft": after, "kept": kept}))
    sys.exit(0)
cfn.create_stack(StackName=stack, TemplateBody=body, Parameters=params, Capabilities=["CAPABILITY_NAMED_IAM"])
status = cfn.describe_stacks(StackName=stack)["Stacks"][0]["StackStatus"]
resources = [{"logical": r["LogicalResourceId"], "physical": r.get("PhysicalResourceId"), "type": r["ResourceType"]} for r in cfn.list_stack_resources(StackName=stack)["StackResourceSummaries"]]

# the queue policy: CloudFormation's when moto made it, else the template's document through the API
q = sqs.get_queue_url(QueueName=name)["QueueUrl"]
qarn = sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
queue_policy_by = "cloudformation"
if "Policy" not in sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["Policy"]).get("Attributes", {}):
    class Loader(yaml.SafeLoader):
        pass
    # the template's short-form intrinsics: only !GetAtt <queue>.Arn and !Ref <queue> occur in the queue policy
    Loader.add_multi_constructor("!", lambda loader, suffix, node: {suffix: loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else loader.construct_sequence(node)})
    tpl = yaml.load(body, Loader=Loader)
    doc = json.loads(json.dumps(tpl["Resources"]["KarpenterInterruptionQueuePolicy"]["Properties"]["PolicyDocument"]).replace('{"GetAtt": "KarpenterInterruptionQueue.Arn"}', json.dumps(qarn)))
    sqs.set_queue_attributes(QueueUrl=q, Attributes={"Policy": json.dumps(doc)})
    queue_policy_by = "the SQS API (moto's CloudFormation has no AWS::SQS::QueuePolicy), the template's document"

# eksctl: the controller role with Pod Identity's trust, the stack's controller policies attached
trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "pods.eks.amazonaws.com"}, "Action": ["sts:AssumeRole", "sts:TagSession"]}]}
role = iam.create_role(RoleName=f"{name}-karpenter", AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
policies = [p for p in iam.list_policies(Scope="Local")["Policies"] if p["PolicyName"].startswith("KarpenterController") and p["PolicyName"].endswith(f"Policy-{name}")]
for p in policies:
    iam.attach_role_policy(RoleName=f"{name}-karpenter", PolicyArn=p["Arn"])
assoc = eks.create_pod_identity_association(clusterName=name, namespace="kube-system", serviceAccount="karpenter", roleArn=role)["association"]["associationId"]
node_role = f"KarpenterNodeRole-{name}"
node_role_arn = iam.get_role(RoleName=node_role)["Role"]["Arn"]
# moto's CloudFormation creates the node role without its ManagedPolicyArns: attached through the API, the template's four
node_policies = [a.replace("${AWS::Partition}", "aws") for a in re.findall(r'"(arn:\$\{AWS::Partition\}:iam::aws:policy/[^"]+)"', body.split("NodeLifecyclePolicy:")[0])]
attached = {a["PolicyArn"] for a in iam.list_attached_role_policies(RoleName=node_role)["AttachedPolicies"]}
for arn in node_policies:
    if arn not in attached:
        iam.attach_role_policy(RoleName=node_role, PolicyArn=arn)
print(json.dumps({"stack": stack, "status": status, "resources": resources, "queuePolicyBy": queue_policy_by, "queueArn": qarn,
                  "controllerRoleArn": role, "controllerPolicies": sorted(p["PolicyName"] for p in policies), "associationId": assoc,
                  "nodeRoleName": node_role, "nodeRoleArn": node_role_arn, "nodeRolePolicies": node_policies,
                  "nodeRolePoliciesBy": "the IAM API (moto's CloudFormation ignores a role's ManagedPolicyArns), the template's list" if node_policies and not attached else "cloudformation",
                  "rules": {r["logical"]: r["physical"] for r in resources if r["type"] == "AWS::Events::Rule"}}))
