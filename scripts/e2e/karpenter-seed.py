# Seeds moto for scripts/e2e/karpenter-dev.cjs (a development aid): what the eks stack would apply, from its
# synthesized policies, queue policy and rule patterns (argv[4]: a JSON spec). Runs in moto's virtualenv.
# With `networkOnly` in the spec (scripts/e2e/day2-stage.cjs) only the VPC, subnets and cluster are made.
import boto3, json, sys
url, region, name, spec_file = sys.argv[1:5]
spec = json.load(open(spec_file))
kw = dict(endpoint_url=url, region_name=region, aws_access_key_id="e2e-seed", aws_secret_access_key="e2e")
ec2 = boto3.client("ec2", **kw); eks = boto3.client("eks", **kw); iam = boto3.client("iam", **kw); sqs = boto3.client("sqs", **kw); ev = boto3.client("events", **kw)
vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
zones = [z["ZoneName"] for z in ec2.describe_availability_zones()["AvailabilityZones"]][:2]
subnets = []
for i, z in enumerate(zones):
    s = ec2.create_subnet(VpcId=vpc, CidrBlock=f"10.0.{i}.0/24", AvailabilityZone=z)["Subnet"]["SubnetId"]
    ec2.create_tags(Resources=[s], Tags=[{"Key": "karpenter.sh/discovery", "Value": name}])
    subnets.append(s)
eks.create_cluster(name=name, roleArn=f"arn:aws:iam::123456789012:role/c", resourcesVpcConfig={"subnetIds": subnets}, version="1.36")
sg = eks.describe_cluster(name=name)["cluster"]["resourcesVpcConfig"]["clusterSecurityGroupId"]
ec2.create_tags(Resources=[sg], Tags=[{"Key": "karpenter.sh/discovery", "Value": name}])
if spec.get("networkOnly"):
    # the day-2 stage: the cluster eksctl would have made; its Karpenter resources come from elsewhere
    print(json.dumps({"subnets": subnets, "securityGroup": sg}))
    sys.exit(0)
trust = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "ec2.amazonaws.com"}, "Action": "sts:AssumeRole"}]})
iam.create_role(RoleName=f"KarpenterNodeRole-{name}", AssumeRolePolicyDocument=trust)
ctl = iam.create_role(RoleName=f"KarpenterControllerRole-{name}", AssumeRolePolicyDocument=json.dumps(spec["controllerTrust"]))["Role"]["Arn"]
for p in spec["policies"]:
    arn = iam.create_policy(PolicyName=p["name"], PolicyDocument=json.dumps(p["document"]))["Policy"]["Arn"]
    iam.attach_role_policy(RoleName=f"KarpenterControllerRole-{name}", PolicyArn=arn)
q = sqs.create_queue(QueueName=name)["QueueUrl"]
qarn = sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
sqs.set_queue_attributes(QueueUrl=q, Attributes={"Policy": json.dumps(spec["queuePolicy"])})
other = None
if spec.get("breakSpotTarget"):
    o = sqs.create_queue(QueueName="e2e-not-the-interruption-queue")["QueueUrl"]
    other = sqs.get_queue_attributes(QueueUrl=o, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
for i, pat in enumerate(spec["rules"]):
    ev.put_rule(Name=f"rule{i}", EventPattern=pat)
    spot = "Spot Instance Interruption Warning" in pat
    ev.put_targets(Rule=f"rule{i}", Targets=[{"Id": "q", "Arn": other if (other and spot) else qarn}])
print(json.dumps({"controllerRoleArn": ctl, "nodeRoleName": f"KarpenterNodeRole-{name}", "queueName": name}))
