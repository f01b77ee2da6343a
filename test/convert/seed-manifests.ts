/** The seed deployment's own v1alpha5 Provisioner and AWSNodeTemplate (as the seed repository ships them). */
export const SEED_MANIFESTS = `apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata:
  name: default
spec:
  requirements:
    - key: node.kubernetes.io/instance-type
      operator: In
      values: ["t3.small", "t3.medium", "t3.large"]
    - key: topology.kubernetes.io/zone
      operator: In
      values: ["us-east-1a", "us-east-1b"]
    - key: karpenter.sh/capacity-type
      operator: In
      values: ["on-demand"]
  labels:
    team: platform
    environment: demo
  limits:
    resources:
      cpu: 100
  providerRef:
    name: default
  ttlSecondsAfterEmpty: 30
---
apiVersion: karpenter.k8s.aws/v1alpha1
kind: AWSNodeTemplate
metadata:
  name: default
spec:
  subnetSelector:
    karpenter.sh/discovery: demo
  securityGroupSelector:
    karpenter.sh/discovery: demo
  instanceProfile: KarpenterNodeInstanceProfile-demo
`;
